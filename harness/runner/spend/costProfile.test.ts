import { describe, expect, test } from 'vitest';
import { buildRegistry } from '#harness/checks/index.ts';
import type { CheckResult } from '#harness/core/outcome.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { costOfUse } from '#harness/spec/pricing.ts';
import { formatUsd } from '#harness/spec/money.ts';
import { estimateFromPlan, profileOf } from './costProfile.ts';

const { spec } = loadSpec();
const registry = buildRegistry(spec);
const model = Object.keys(spec.models)[0]!;
const other = Object.keys(spec.models)[1]!;
const at = new Date('2026-07-01T00:00:00Z');
const byId = (id: string) => registry.all().find((c) => c.id.startsWith(id))!;
const result = (checkId: string, m: string, promptTokens: number, completionTokens: number): CheckResult =>
  ({ checkId, model: m, verdict: 'pass', tokens: { promptTokens, completionTokens, cacheHitTokens: 0 } }) as CheckResult;

describe('the cost profile: each check measured once, a run estimated from its plan', () => {
  const plain = byId('schema.');
  const property = registry.all().find((c) => c.area === 'property')!;
  const profile = profileOf(
    10,
    [result(plain.id, model, 100, 20), result(property.id, model, 1000, 200)],
    [
      { checkId: plain.id, model, count: 2, bound: { promptTokens: 400, completionTokens: 64, unbounded: 0 } },
      { checkId: property.id, model, count: 10, bound: { promptTokens: 4000, completionTokens: 640, unbounded: 1 } },
    ],
  );

  test('the profile holds, per check and model, the requests, the reported tokens and their bound', () => {
    expect(profile.checks[plain.id]![model]).toEqual({ requests: 2, tokens: { promptTokens: 100, completionTokens: 20, cacheHitTokens: 0 }, bound: { promptTokens: 400, completionTokens: 64, unbounded: 0 } });
  });

  test('the estimate adds the plan up at the spec prices; property checks scale with --runs', () => {
    const e = estimateFromPlan(spec, [{ check: plain, model }, { check: property, model }], 20, profile, at);
    expect(e).toMatchObject({ method: 'plan-profile', requests: 2 + 20, unprofiled: 0 });
    expect(e.expected).toEqual({ promptTokens: 100 + 2000, completionTokens: 20 + 400, costUsd: formatUsd(costOfUse(spec, model, { promptTokens: 2100, completionTokens: 420, cacheHitTokens: 0 }, at), 6) });
    expect(e.upperBound).toMatchObject({ promptTokens: 400 + 8000, completionTokens: 64 + 1280, uncappedRequests: 2 });
  });

  test('a model the profile lacks costs what the check costs on a measured model; an unknown check is counted, not guessed', () => {
    const e = estimateFromPlan(spec, [{ check: plain, model: other }, { check: { ...plain, id: 'schema.unknown.check' }, model }], 10, profile, at);
    expect(e).toMatchObject({ requests: 2, unprofiled: 1, expected: { promptTokens: 100, completionTokens: 20 } });
  });
});
