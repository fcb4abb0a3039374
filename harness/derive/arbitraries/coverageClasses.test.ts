import { describe, expect, test } from 'vitest';
import { loadSpec } from '#harness/spec/load.ts';
import { validateRequest } from '#harness/emulator/validate/request.ts';
import { coverageClasses, operationOf } from './coverageClasses.ts';

const { spec } = loadSpec();
const CURRENT = Object.entries(spec.models).filter(([, m]) => m.kind === 'current').map(([id]) => id);
const baseFor = (model: string) => ({ model, messages: [{ role: 'user', content: 'Say hello in five words.' }], max_tokens: 32 });

describe.each(CURRENT)('the coverage classes of %s', (model) => {
  const { classes, unsendable } = coverageClasses(spec, { model }, baseFor(model));
  const ids = classes.map((c) => c.id);

  test('the same on every call: built from the spec and the base alone', () => {
    expect(coverageClasses(spec, { model }, baseFor(model))).toEqual({ classes, unsendable });
    expect(new Set(ids).size).toBe(ids.length);
  });

  test('every kind the issue names: required missing, each wrong JSON type, off a list (nested too), beyond a bound, a rule, a null, a body not an object', () => {
    for (const id of ['required messages.*.content missing', 'type messages string', 'type messages object', 'type model integer', 'type tools string', 'enum messages.*.role off-list', 'enum tools.*.type off-list', 'enum response_format.type off-list', 'enum thinking.type off-list', 'bound temperature maximum', 'bound stop max_items', 'rule top_logprobs broken', 'null model', 'body (body) array']) {
      expect(ids, id).toContain(id);
    }
    // Every JSON type a field does not take: a boolean takes none of the other five.
    expect(ids.filter((id) => id.startsWith('type stream '))).toEqual(['type stream string', 'type stream integer', 'type stream number', 'type stream array', 'type stream object']);
  });

  test('strength from the spec: a null is must only where a required field gets it (missing or a wrong type, 400 either way); elsewhere advisory', () => {
    expect(classes.find((c) => c.id === 'null model')?.strength).toBe('must');
    expect(classes.find((c) => c.id === 'null temperature')?.strength).toBe('advisory');
    // `stop` is nullable: a null there is no class at all.
    expect(ids).not.toContain('null stop');
    expect(classes.filter((c) => c.kind !== 'null').every((c) => c.strength === 'must')).toBe(true);
  });

  test('statuses are the rule\'s: 400 for a wrong type or a missing field, 400 or 422 off a list or beyond a bound', () => {
    expect(classes.find((c) => c.id === 'type messages string')?.statuses).toEqual([400]);
    expect(classes.find((c) => c.id === 'enum messages.*.role off-list')?.statuses).toEqual([400, 422]);
  });

  test('each request breaks what it says, and only that: the emulator (which keeps the spec on its own) refuses each must class', () => {
    for (const c of classes.filter((x) => x.strength === 'must')) {
      const refusal = validateRequest(spec, c.request.body, { endpoint: 'chat_completions', base: 'base_url', modelId: model });
      expect(refusal, c.id).toBeDefined();
      if (c.statuses) expect(c.statuses, c.id).toContain(refusal!.status);
    }
  });
});

describe.each([
  ['fim_completions', 'svc-v4-pro', 'beta', { prompt: 'def add(a, b):\n', suffix: '\n    return c\n', max_tokens: 32 }, ['required prompt missing', 'type prompt integer', 'type suffix array', 'type max_tokens string', 'null prompt', 'body (body) array']],
  ['messages', 'svc-v4-flash', 'messages_base_url', { max_tokens: 32, messages: [{ role: 'user', content: 'Say hello in five words.' }] }, ['required max_tokens missing', 'type messages string', 'type max_tokens string', 'null messages', 'body (body) array']],
] as const)('the coverage classes of the %s operation', (endpoint, model, base, rest, expected) => {
  const operation = operationOf(spec, endpoint);
  const { classes } = coverageClasses(spec, { model }, { model, ...rest }, operation);

  test('derived from its own request object', () => {
    for (const id of expected) expect(classes.map((c) => c.id), id).toContain(id);
    // No chat field leaks in.
    expect(classes.some((c) => c.field.startsWith('tools'))).toBe(false);
  });

  test('each must class is refused by the emulator\'s validation of that endpoint', () => {
    for (const c of classes.filter((x) => x.strength === 'must')) {
      const refusal = validateRequest(spec, c.request.body, { endpoint, base, modelId: model });
      expect(refusal, c.id).toBeDefined();
      if (c.statuses) expect(c.statuses, c.id).toContain(refusal!.status);
    }
  });
});
