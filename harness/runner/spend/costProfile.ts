import type { CheckResult, TokenUse } from '#harness/core/outcome.ts';
import type { CostEstimate } from '#harness/results/index.ts';
import { formatUsd } from '#harness/spec/money.ts';
import { costOfUse } from '#harness/spec/pricing.ts';
import type { Spec } from '#harness/spec/model.ts';
import type { Planned } from '../plan.ts';
import { addBound, NO_BOUND, type RequestBound } from './requestBound.ts';
import { addTokens, NO_TOKENS } from './tokens.ts';

/** What one check asks of one model: requests, the tokens the emulator's answers reported, their bound. */
export interface CheckCost {
  requests: number;
  tokens: TokenUse;
  bound: RequestBound;
}

/**
 * What each check costs, measured once on the embedded emulator over every model of the spec
 * (`npm run profile:costs` writes costProfile.json; a test fails when it no longer matches the
 * checks). A run's estimate is then arithmetic over its plan, not a second run.
 */
export interface CostProfile {
  /** Property checks send about one request per run: their figures scale with --runs. */
  runs: number;
  checks: Record<string, Record<string, CheckCost>>;
}

/** What a check sent, as the runner counts it. */
export interface SentByCheck {
  checkId: string;
  model: string;
  count: number;
  bound: RequestBound;
}

/** The profile of a finished dry run over every model. */
export function profileOf(runs: number, results: readonly CheckResult[], sent: readonly SentByCheck[]): CostProfile {
  const checks: CostProfile['checks'] = {};
  const entry = (checkId: string, model: string): CheckCost => ((checks[checkId] ??= {})[model] ??= { requests: 0, tokens: NO_TOKENS, bound: NO_BOUND });
  for (const s of sent) {
    const e = entry(s.checkId, s.model);
    e.requests += s.count;
    e.bound = addBound(e.bound, s.bound);
  }
  for (const r of results) if (r.tokens) entry(r.checkId, r.model).tokens = addTokens(entry(r.checkId, r.model).tokens, r.tokens);
  // Sorted keys: the file diffs cleanly when a check is added.
  const sorted = Object.fromEntries(Object.keys(checks).sort().map((id) => [id, Object.fromEntries(Object.keys(checks[id]!).sort().map((m) => [m, checks[id]![m]!]))]));
  return { runs, checks: sorted };
}

/** A check's cost on `model`: measured, else its dearest model's (a spec with models the profile lacks). */
function measuredCost(profile: CostProfile, checkId: string, model: string): CheckCost | undefined {
  const byModel = profile.checks[checkId];
  if (!byModel) return undefined;
  return byModel[model] ?? Object.values(byModel).reduce((a, b) => (b.bound.completionTokens > a.bound.completionTokens ? b : a));
}

const scaled = (c: CheckCost, k: number): CheckCost =>
  k === 1
    ? c
    : {
        requests: Math.ceil(c.requests * k),
        tokens: { promptTokens: Math.ceil(c.tokens.promptTokens * k), completionTokens: Math.ceil(c.tokens.completionTokens * k), cacheHitTokens: Math.ceil(c.tokens.cacheHitTokens * k) },
        bound: { promptTokens: Math.ceil(c.bound.promptTokens * k), completionTokens: Math.ceil(c.bound.completionTokens * k), unbounded: Math.ceil(c.bound.unbounded * k) },
      };

/**
 * What a run will cost, from its plan and the profile: expected, the tokens the emulator's answers
 * reported at the spec's prices in force at `pricedAt`; upper bound, every request's body bytes as
 * prompt tokens and its output cap, all at cache-miss prices. A check the profile does not know
 * adds nothing and is counted in `unprofiled`.
 */
export function estimateFromPlan(spec: Spec, plan: readonly Planned[], runs: number, profile: CostProfile, pricedAt: Date): CostEstimate & { unprofiled: number } {
  const perModel = new Map<string, { tokens: TokenUse; bound: RequestBound }>();
  let requests = 0;
  let unprofiled = 0;
  for (const { check, model } of plan) {
    const measured = measuredCost(profile, check.id, model);
    if (!measured) {
      unprofiled += 1;
      continue;
    }
    const c = scaled(measured, check.area === 'property' ? runs / profile.runs : 1);
    requests += c.requests;
    const m = perModel.get(model) ?? { tokens: NO_TOKENS, bound: NO_BOUND };
    perModel.set(model, { tokens: addTokens(m.tokens, c.tokens), bound: addBound(m.bound, c.bound) });
  }
  let expectedPico = 0n;
  let boundPico = 0n;
  let tokens = NO_TOKENS;
  let bound = NO_BOUND;
  for (const [model, m] of perModel) {
    tokens = addTokens(tokens, m.tokens);
    bound = addBound(bound, m.bound);
    expectedPico += costOfUse(spec, model, m.tokens, pricedAt);
    // Every prompt token of the bound a cache miss: the dearer input price.
    boundPico += costOfUse(spec, model, { promptTokens: m.bound.promptTokens, completionTokens: m.bound.completionTokens, cacheHitTokens: 0 }, pricedAt);
  }
  return {
    method: 'plan-profile',
    requests,
    expected: { promptTokens: tokens.promptTokens, completionTokens: tokens.completionTokens, costUsd: formatUsd(expectedPico, 6) },
    upperBound: { promptTokens: bound.promptTokens, completionTokens: bound.completionTokens, costUsd: formatUsd(boundPico, 6), uncappedRequests: bound.unbounded },
    unprofiled,
  };
}
