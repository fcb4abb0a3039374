import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { validateRequest } from '#harness/emulator/validate/index.ts';
import { loadSpec } from '#harness/spec/load.ts';
import type { Spec, TypeExpr } from '#harness/spec/model.ts';
import { assertProduceCorrectValues, assertProduceSameValueGivenSameSeed, assertReaches, requestViolations } from '#harness/testing/arbitraryAssertions.ts';
import { chatRequest, type ChatRequestBody } from './chatRequest.ts';

const { spec } = loadSpec();
const CURRENT = Object.entries(spec.models).filter(([, m]) => m.kind === 'current').map(([id]) => id);
/** A legacy alias too: svc-reasoner refuses logprobs (rules.yaml), so its requests must leave them out. */
const MODELS = [...CURRENT, 'svc-reasoner'];
const fields = spec.objects.chat_completion_request!.fields;

/** The emulator implements the spec on its own: an oracle independent of the arbitraries. */
const emulatorRefusal = (s: Spec, model: string, body: ChatRequestBody) => validateRequest(s, body, { base: 'base_url', endpoint: 'chat_completions', modelId: model });

describe.each(MODELS)('chatRequest(spec, { model: %s })', (model) => {
  const arb = chatRequest(spec, { model });

  test('the same seed gives the same value', () => {
    assertProduceSameValueGivenSameSeed(arb);
  });

  test('every value passes the compiled validator (no must-level violation)', () => {
    assertProduceCorrectValues(arb, (body) => {
      const v = requestViolations(spec, model, body);
      return v.length === 0 ? undefined : v.map((x) => `${x.path} ${x.message}`).join('; ');
    });
  });

  test('the emulator, which reads the spec on its own, refuses none of them (cross-field rules included)', () => {
    assertProduceCorrectValues(arb, (body) => emulatorRefusal(spec, model, body)?.message);
  });

  test('fields come as the rules tie them, and the run stays cheap', () => {
    assertProduceCorrectValues(arb, (body) => {
      if (body.top_logprobs !== undefined && body.logprobs !== true) return 'top_logprobs without logprobs = true';
      if (body.tool_choice !== undefined && body.tools === undefined) return 'tool_choice without tools';
      if (body.stream === true) return 'streaming selected';
      if (body.model !== model) return 'model is not the one asked for';
      const messages = body.messages as { role: string; content: unknown }[];
      if (messages.length === 0 || messages.at(-1)!.role !== 'user') return 'the conversation does not end with a user turn';
      if (messages.some((m) => m.role !== 'user' && m.role !== 'system')) return 'a turn other than system or user';
      if (messages.some((m) => typeof m.content !== 'string' || m.content.length === 0 || m.content.length > 120)) return 'content is not short text';
      if (typeof body.max_tokens === 'number' && (body.max_tokens < 1 || body.max_tokens > 64)) return 'max_tokens outside 1..64';
      const choice = body.tool_choice as { function?: { name?: string } } | undefined;
      if (choice?.function && !(body.tools as { function: { name: string } }[]).some((t) => t.function.name === choice.function!.name)) return 'tool_choice names no offered tool';
      return undefined;
    });
  });
});

test('svc-reasoner never gets logprobs or top_logprobs (legacy.reasoner.logprobs-refused)', () => {
  assertProduceCorrectValues(chatRequest(spec, { model: 'svc-reasoner' }), (b) => (b.logprobs === true || b.top_logprobs !== undefined ? 'logprobs on svc-reasoner' : undefined));
});

describe('the bounds themselves are drawn, within 200 values', () => {
  const arb = chatRequest(spec, { model: 'svc-v4-flash' });
  const at = (name: string, value: unknown) => (b: ChatRequestBody) => b[name] === value;

  test('temperature 0 and 2', () => {
    assertReaches(arb, { 'temperature 0': at('temperature', 0), 'temperature 2': at('temperature', 2) });
  });

  test('both bounds of every field with a numeric minimum and maximum, read from the spec', () => {
    const targets: Record<string, (b: ChatRequestBody) => boolean> = {};
    for (const [name, f] of Object.entries(fields)) {
      if (typeof f.minimum !== 'number' || typeof f.maximum !== 'number') continue;
      targets[`${name} ${f.minimum}`] = at(name, f.minimum);
      targets[`${name} ${f.maximum}`] = at(name, f.maximum);
    }
    expect(Object.keys(targets)).toEqual(expect.arrayContaining(['temperature 0', 'temperature 2', 'frequency_penalty -2', 'frequency_penalty 2', 'top_logprobs 0', 'top_logprobs 20']));
    assertReaches(arb, targets);
  });

  test('max_tokens 1 and 64, a stop list at its item limit, a single stop string', () => {
    const stopMax = fields.stop!.one_of!.find((a) => typeof a.max_items === 'number')!.max_items as number;
    assertReaches(arb, {
      'max_tokens 1': at('max_tokens', 1),
      'max_tokens 64': at('max_tokens', 64),
      [`stop with ${stopMax} items`]: (b) => Array.isArray(b.stop) && b.stop.length === stopMax,
      'stop as a string': (b) => typeof b.stop === 'string',
    });
  });

  test('every allowed value of every enum, and thinking together with tools', () => {
    const targets: Record<string, (b: ChatRequestBody) => boolean> = {};
    const enums: [string, TypeExpr][] = Object.entries(fields).flatMap(([name, f]) => [
      ...(f.enum ? [[name, f] as [string, TypeExpr]] : []),
      ...Object.entries(f.fields ?? {}).filter(([, g]) => g.enum).map(([sub, g]) => [`${name}.${sub}`, g] as [string, TypeExpr]),
      ...(f.one_of ?? []).filter((a) => a.enum).map((a) => [name, a] as [string, TypeExpr]),
    ]);
    for (const [path, f] of enums) {
      for (const v of f.enum!) targets[`${path} = ${String(v)}`] = (b) => path.split('.').reduce<unknown>((n, k) => (n as Record<string, unknown> | undefined)?.[k], b) === v;
    }
    targets['thinking enabled with tools'] = (b) => (b.thinking as { type?: string } | undefined)?.type === 'enabled' && b.tools !== undefined;
    targets['tool_choice naming a function'] = (b) => typeof b.tool_choice === 'object' && b.tool_choice !== null;
    expect(Object.keys(targets)).toContain('reasoning_effort = none');
    assertReaches(arb, targets, { numRuns: 400 });
  });
});

describe('text as users write it, within 200 values', () => {
  const arb = chatRequest(spec, { model: 'svc-v4-flash' });
  const contents = (b: ChatRequestBody) => (b.messages as { role: string; content: string }[]).map((m) => ({ role: m.role, content: m.content }));
  const stops = (b: ChatRequestBody) => (typeof b.stop === 'string' ? [b.stop] : Array.isArray(b.stop) ? (b.stop as string[]) : []);
  const nonAscii = (t: string) => /[^\x00-\x7f]/.test(t);

  test('each script range in a message, a system message outside ASCII, a stop sequence outside ASCII, a tool described outside ASCII', () => {
    const inMessages = (re: RegExp) => (b: ChatRequestBody) => contents(b).some((m) => re.test(m.content));
    assertReaches(arb, {
      'accented Latin': inMessages(/[\u00c0-\u017f]/u),
      CJK: inMessages(/[\u4e00-\u9fff]/u),
      'emoji (astral: a surrogate pair)': inMessages(/[\u{1f600}-\u{1f64f}]/u),
      'right-to-left': inMessages(/[\u05d0-\u05ea\u0627-\u064a]/u),
      'combining marks': inMessages(/[a-z][\u0300-\u036f]/u),
      'a system message outside ASCII': (b) => contents(b).some((m) => m.role === 'system' && nonAscii(m.content)),
      'an ASCII conversation': (b) => contents(b).every((m) => !nonAscii(m.content)),
      'a stop sequence outside ASCII': (b) => stops(b).some(nonAscii),
      'a tool described outside ASCII': (b) => Array.isArray(b.tools) && (b.tools as { function: { description?: string } }[]).some((t) => nonAscii(t.function.description ?? '')),
    });
  });
});

describe('constraints', () => {
  test('are checked up front', () => {
    expect(() => chatRequest(spec, { model: 'svc-no-such-model' })).toThrow(/not a model of the spec/);
    expect(() => chatRequest(spec, { model: 'svc-v4-flash', maxTokens: { min: 0, max: 10 } })).toThrow(/1 <= min <= max/);
    expect(() => chatRequest(spec, { model: 'svc-v4-flash', maxTokens: { min: 9, max: 3 } })).toThrow(/1 <= min <= max/);
    expect(() => chatRequest(spec, { model: 'svc-chat', maxTokens: { min: 1, max: 9000 } })).toThrow(/above the maximum of svc-chat \(8K/);
  });

  test('sentAs is written into `model`, and maxTokens moves max_tokens', () => {
    const arb = chatRequest(spec, { model: 'svc-v4-flash', sentAs: 'provider-flash', maxTokens: { min: 7, max: 9 } });
    assertProduceCorrectValues(arb, (b) => (b.model !== 'provider-flash' ? 'model not sentAs' : typeof b.max_tokens === 'number' && (b.max_tokens < 7 || b.max_tokens > 9) ? 'max_tokens outside 7..9' : undefined));
    assertReaches(arb, { 'max_tokens 7': (b) => b.max_tokens === 7, 'max_tokens 9': (b) => b.max_tokens === 9 });
  });

  test('bounds are read from the spec: a maximum of 1.5 is reached and never passed', () => {
    const changed: Spec = structuredClone(spec);
    changed.objects.chat_completion_request!.fields.temperature!.maximum = 1.5;
    const arb = chatRequest(changed, { model: 'svc-v4-flash' });
    assertProduceCorrectValues(arb, (b) => (typeof b.temperature === 'number' && b.temperature > 1.5 ? 'temperature above 1.5' : undefined));
    assertReaches(arb, { 'temperature 1.5': (b) => b.temperature === 1.5 });
  });

  test('values shrink towards fewer optional fields', () => {
    const out = fc.check(fc.property(chatRequest(spec, { model: 'svc-v4-flash' }), (b) => b.temperature !== 2), { seed: 1 });
    expect(out.failed).toBe(true);
    expect(out.counterexample?.[0]).toEqual({ model: 'svc-v4-flash', messages: [{ role: 'user', content: expect.any(String) }], temperature: 2 });
  });
});
