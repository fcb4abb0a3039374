import { describe, expect, test } from 'vitest';
import { conditionHolds } from '#harness/emulator/validate/conditions.ts';
import { validateRequest } from '#harness/emulator/validate/index.ts';
import { loadSpec } from '#harness/spec/load.ts';
import type { Spec } from '#harness/spec/model.ts';
import { assertProduceCorrectValues, assertProduceSameValueGivenSameSeed, assertReaches, pointerOf, requestViolations } from '#harness/testing/arbitraryAssertions.ts';
import { invalidChatRequest, type InvalidChatRequest } from './invalidChatRequest.ts';

const { spec } = loadSpec();
const CURRENT = Object.entries(spec.models).filter(([, m]) => m.kind === 'current').map(([id]) => id);
const MODELS = [...CURRENT, 'svc-reasoner'];
const site = (model: string) => ({ base: 'base_url', endpoint: 'chat_completions', modelId: model });

/**
 * What is wrong with a negative value, or undefined. It must fail the compiled validator at the
 * broken field and nowhere else (a missing field is reported at its parent), or, for a rule break,
 * meet the rule's conditions as the emulator reads them.
 */
function problemOf(s: Spec, model: string, { request, broken }: InvalidChatRequest): string | undefined {
  const violations = requestViolations(s, model, request);
  const rule = s.rules.find((r) => r.id === broken.ruleId);
  if (!rule) return `names rule ${broken.ruleId}, which the spec lacks`;
  const expected = rule.expect.status !== undefined ? [rule.expect.status] : rule.expect.status_any_of;
  if (JSON.stringify(broken.statuses) !== JSON.stringify(expected)) return `statuses ${JSON.stringify(broken.statuses)} are not the rule's ${JSON.stringify(expected)}`;
  if (broken.kind === 'rule') {
    const holds = [rule.when, ...(rule.also_when ?? [])].some((set) => set.every((c) => conditionHolds(s, c, request, site(model))));
    if (!holds) return `the conditions of ${rule.id} do not hold`;
    const fieldsOfRule = new Set(rule.when.flatMap((c) => (c.field ? [pointerOf(c.field)] : [])));
    const elsewhere = violations.filter((v) => !fieldsOfRule.has(v.path));
    return elsewhere.length === 0 ? undefined : `also broken: ${elsewhere.map((v) => `${v.path} ${v.message}`).join('; ')}`;
  }
  if (violations.length === 0) return 'the compiled validator finds nothing wrong';
  const segments = broken.field.split('.');
  const parent = segments.length === 1 ? '' : pointerOf(segments.slice(0, -1).join('.'));
  const atField = (v: (typeof violations)[number]) =>
    v.path === pointerOf(broken.field) || (broken.kind === 'required' && v.path === parent && v.params.missingProperty === segments.at(-1));
  const elsewhere = violations.filter((v) => !atField(v));
  return elsewhere.length === 0 ? undefined : `broken beyond ${broken.field}: ${elsewhere.map((v) => `${v.path} ${v.message}`).join('; ')}`;
}

describe.each(MODELS)('invalidChatRequest(spec, { model: %s })', (model) => {
  const arb = invalidChatRequest(spec, { model });

  test('the same seed gives the same value', () => {
    assertProduceSameValueGivenSameSeed(arb);
  });

  test('every value breaks exactly the rule it names: the validator fails at that field only, or the rule\'s conditions hold', () => {
    assertProduceCorrectValues(arb, (x) => problemOf(spec, model, x), { numRuns: 400 });
  });

  test('the emulator refuses every value, with a status the broken rule names, at the broken field', () => {
    assertProduceCorrectValues(
      arb,
      ({ request, broken }) => {
        const refusal = validateRequest(spec, request, site(model));
        if (!refusal) return 'accepted';
        if (broken.statuses && !broken.statuses.includes(refusal.status)) return `refused with ${refusal.status}, not ${broken.statuses.join('/')}`;
        return refusal.param === broken.field ? undefined : `refused for ${refusal.param}, not ${broken.field}`;
      },
      { numRuns: 400 },
    );
  });

  test('every kind of break is drawn', () => {
    assertReaches(arb, { bound: (x) => x.broken.kind === 'bound', enum: (x) => x.broken.kind === 'enum', required: (x) => x.broken.kind === 'required', type: (x) => x.broken.kind === 'type', rule: (x) => x.broken.kind === 'rule' }, { numRuns: 100 });
  });
});

describe('out-of-range values, just beyond the bound and far beyond', () => {
  const arb = invalidChatRequest(spec, { model: 'svc-v4-flash' });
  const value = (field: string, pred: (v: number) => boolean) => (x: InvalidChatRequest) => x.broken.kind === 'bound' && x.broken.field === field && typeof x.request[field] === 'number' && pred(x.request[field] as number);

  test('temperature 2.01 and -0.01, and beyond 1000 either way', () => {
    assertReaches(arb, {
      'temperature 2.01': value('temperature', (v) => v === 2.01),
      'temperature -0.01': value('temperature', (v) => v === -0.01),
      'temperature far above': value('temperature', (v) => v >= 1000),
      'temperature far below': value('temperature', (v) => v <= -1000),
    }, { numRuns: 2000 });
  });

  test('top_logprobs 21 and -1 (with logprobs = true), max_tokens one past the model maximum, one stop too many', () => {
    const stopMax = spec.objects.chat_completion_request!.fields.stop!.one_of!.find((a) => typeof a.max_items === 'number')!.max_items as number;
    assertReaches(arb, {
      'top_logprobs 21': (x) => value('top_logprobs', (v) => v === 21)(x) && x.request.logprobs === true,
      'top_logprobs -1': (x) => value('top_logprobs', (v) => v === -1)(x) && x.request.logprobs === true,
      'max_tokens 384001': value('max_tokens', (v) => v === 384001),
      [`stop with ${stopMax + 1} items`]: (x) => x.broken.field === 'stop' && Array.isArray(x.request.stop) && x.request.stop.length === stopMax + 1,
      'stop far too long': (x) => x.broken.field === 'stop' && Array.isArray(x.request.stop) && x.request.stop.length > stopMax + 1,
    }, { numRuns: 3000 });
  });

  test('max_tokens beyond the maximum falls under the per-model rule; a quantity like 8K is passed under both readings', () => {
    assertProduceCorrectValues(invalidChatRequest(spec, { model: 'svc-chat' }), (x) => {
      if (x.broken.field !== 'max_tokens' || x.broken.kind !== 'bound') return undefined;
      if (x.broken.ruleId !== 'chat.max-tokens.per-model-maximum') return `rule ${x.broken.ruleId}`;
      return (x.request.max_tokens as number) > 8192 ? undefined : `max_tokens ${String(x.request.max_tokens)} is not beyond 8K read as 8192`;
    }, { numRuns: 1000 });
  });
});

describe('the rule kind, from rules.yaml', () => {
  test('top_logprobs without logprobs = true, and empty messages, are the rule breaks of a current model', () => {
    const ids = new Set<string>();
    assertProduceCorrectValues(invalidChatRequest(spec, { model: 'svc-v4-flash' }), (x) => {
      if (x.broken.kind === 'rule') ids.add(x.broken.ruleId);
      return undefined;
    }, { numRuns: 400 });
    expect([...ids].sort()).toEqual(['chat.messages.non-empty', 'chat.top-logprobs.requires-logprobs']);
  });

  test('a rule added to the spec is broken without new code', () => {
    const changed: Spec = structuredClone(spec);
    changed.rules.push({ id: 'chat.test.stop-needs-temperature', endpoint: 'chat_completions', statement: 'stop requires temperature.', when: [{ field: 'stop', present: true }, { field: 'temperature', present: false }], expect: { status: 409 }, strength: 'must', basis: 'stated', source: 'test' });
    assertReaches(invalidChatRequest(changed, { model: 'svc-v4-flash' }), { 'the new rule': (x) => x.broken.ruleId === 'chat.test.stop-needs-temperature' && x.request.stop !== undefined && x.request.temperature === undefined && JSON.stringify(x.broken.statuses) === '[409]' }, { numRuns: 1000 });
  });

  test('a break a model can never get alone is left out: top_logprobs bounds on svc-reasoner (which refuses logprobs)', () => {
    assertProduceCorrectValues(invalidChatRequest(spec, { model: 'svc-reasoner' }), (x) => (x.request.top_logprobs !== undefined || x.request.logprobs === true ? `${x.broken.what} carries logprobs` : undefined), { numRuns: 400 });
  });
});

test('constraints are checked up front', () => {
  expect(() => invalidChatRequest(spec, { model: 'svc-no-such-model' })).toThrow(/not a model of the spec/);
  expect(() => invalidChatRequest(spec, { model: 'svc-v4-flash', maxTokens: { min: 5, max: 1 } })).toThrow(/invalidChatRequest: maxTokens/);
});
