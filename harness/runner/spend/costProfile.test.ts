import { describe, expect, test } from 'vitest';
import { buildRegistry } from '#harness/checks/index.ts';
import type { CheckResult } from '#harness/core/outcome.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { formatUsd } from '#harness/spec/money.ts';
import { costOfUse } from '#harness/spec/pricing.ts';
import { estimateFromProfile, profileCovers, profileOf } from './costProfile.ts';

const { spec } = loadSpec();
const [model, other] = Object.keys(spec.models) as [string, string];
const at = new Date('2026-07-01T00:00:00Z');
const ids = buildRegistry(spec).all().map((c) => c.id);
const plain = ids.find((id) => id.startsWith('schema.'))!;
const property = ids.find((id) => id.startsWith('property.'))!;
const result = (checkId: string, promptTokens: number, completionTokens: number): CheckResult =>
  ({ checkId, model, verdict: 'pass', tokens: { promptTokens, completionTokens, cacheHitTokens: 0 } }) as CheckResult;

describe('the cost profile: a whole run measured once, then estimated by arithmetic', () => {
  const profile = profileOf(at.toISOString(), 10, ids, [result(plain, 100, 20), result(property, 1000, 200)], [
    { checkId: plain, model, count: 2, bound: { promptTokens: 400, completionTokens: 64, unbounded: 0 } },
    { checkId: property, model, count: 10, bound: { promptTokens: 4000, completionTokens: 640, unbounded: 1 } },
  ]);

  test('per model, the property share apart from the rest', () => {
    expect(profile.models[model]).toEqual({
      property: { requests: 10, tokens: { promptTokens: 1000, completionTokens: 200, cacheHitTokens: 0 }, bound: { promptTokens: 4000, completionTokens: 640, unbounded: 1 } },
      other: { requests: 2, tokens: { promptTokens: 100, completionTokens: 20, cacheHitTokens: 0 }, bound: { promptTokens: 400, completionTokens: 64, unbounded: 0 } },
    });
  });

  test('the estimate prices each model at the spec prices; the property share scales with --runs', () => {
    const e = estimateFromProfile(spec, [model], 20, profile, at);
    expect(e).toMatchObject({ method: 'plan-profile', requests: 2 + 20 });
    expect(e.expected).toEqual({ promptTokens: 2100, completionTokens: 420, costUsd: formatUsd(costOfUse(spec, model, { promptTokens: 2100, completionTokens: 420, cacheHitTokens: 0 }, at), 6) });
    expect(e.upperBound).toMatchObject({ promptTokens: 400 + 8000, completionTokens: 64 + 1280, uncappedRequests: 2 });
  });

  test('it covers only the run it measured: the same checks, on models it measured', () => {
    expect(profileCovers(profile, ids, [model])).toBe(true);
    expect(profileCovers(profile, ids, [other])).toBe(false);
    expect(profileCovers(profile, [...ids, 'schema.new.check'], [model])).toBe(false);
    expect(profileCovers(profile, ids.slice(1), [model])).toBe(false);
  });
});
