import type { CheckResult, TokenUse } from '#harness/core/outcome.ts';
import type { CostEstimate } from '#harness/results/index.ts';
import { formatUsd } from '#harness/spec/money.ts';
import { costOfUse } from '#harness/spec/pricing.ts';
import type { Spec } from '#harness/spec/model.ts';
import type { SuitesRun } from '../suitesRun.ts';
import { addBound, NO_BOUND, type RequestBound } from './requestBound.ts';
import { addTokens, NO_TOKENS } from '#harness/core/tokens.ts';

/** What a set of checks asks of one model: requests, the tokens the emulator's answers reported, their bound. */
export interface Cost {
  requests: number;
  tokens: TokenUse;
  bound: RequestBound;
}

/**
 * What a whole run costs per model, measured once on the embedded emulator (`npm run
 * profile:costs` writes costProfile.json; a test fails when it no longer matches the checks). A
 * run of every check is then estimated by arithmetic, not a second run. Per model, not per check:
 * checks share answers (one plain completion serves every shape check), and which of them sends it
 * is a race, so only a model's total is stable.
 */
export interface CostProfile {
  /** The reference time it was measured at: lifecycle checks ask differently before and after a retirement. */
  measuredAt: string;
  /** Property checks send about one request per run: their share scales with --runs. */
  runs: number;
  /** The checks measured (sorted): a registry with any other set is not what was measured. */
  checks: string[];
  models: Record<string, { property: Cost; other: Cost }>;
}

const NO_COST: Cost = { requests: 0, tokens: NO_TOKENS, bound: NO_BOUND };
const isProperty = (checkId: string) => checkId.startsWith('property.');

/** The profile of a finished dry run of every check on every model. */
export function profileOf(measuredAt: string, runs: number, checks: readonly string[], results: readonly CheckResult[], sent: SuitesRun['sent']): CostProfile {
  const models: CostProfile['models'] = {};
  const share = (checkId: string, model: string) => {
    models[model] ??= { property: NO_COST, other: NO_COST };
    return isProperty(checkId) ? 'property' : 'other';
  };
  for (const s of sent) {
    const key = share(s.checkId, s.model);
    const c = models[s.model]![key];
    models[s.model]![key] = { ...c, requests: c.requests + s.count, bound: addBound(c.bound, s.bound) };
  }
  for (const r of results) {
    if (!r.tokens) continue;
    const key = share(r.checkId, r.model);
    const c = models[r.model]![key];
    models[r.model]![key] = { ...c, tokens: addTokens(c.tokens, r.tokens) };
  }
  // Sorted keys: the file diffs cleanly.
  return { measuredAt, runs, checks: [...checks].sort(), models: Object.fromEntries(Object.keys(models).sort().map((m) => [m, models[m]!])) };
}

/** Whether the profile measured exactly this run: every check of the registry, on models it measured. */
export function profileCovers(profile: CostProfile, checks: readonly string[], models: readonly string[]): boolean {
  const sorted = [...checks].sort();
  return sorted.length === profile.checks.length && sorted.every((id, i) => id === profile.checks[i]) && models.every((m) => profile.models[m] !== undefined);
}

function scaled(c: Cost, k: number): Cost {
  const up = (n: number) => Math.ceil(n * k);
  return {
    requests: up(c.requests),
    tokens: { promptTokens: up(c.tokens.promptTokens), completionTokens: up(c.tokens.completionTokens), cacheHitTokens: up(c.tokens.cacheHitTokens) },
    bound: { promptTokens: up(c.bound.promptTokens), completionTokens: up(c.bound.completionTokens), unbounded: up(c.bound.unbounded) },
  };
}

/**
 * What a run of every check on `models` will cost, from the profile: expected, the tokens the
 * emulator's answers reported, at the spec's prices in force at `pricedAt`; upper bound, every
 * request's body bytes as prompt tokens and its output cap, all at cache-miss prices.
 */
export function estimateFromProfile(spec: Spec, models: readonly string[], runs: number, profile: CostProfile, pricedAt: Date): CostEstimate {
  let expectedPico = 0n;
  let boundPico = 0n;
  let all = NO_COST;
  for (const model of models) {
    const measured = profile.models[model];
    if (!measured) continue;
    const property = scaled(measured.property, runs / profile.runs);
    const c: Cost = { requests: measured.other.requests + property.requests, tokens: addTokens(measured.other.tokens, property.tokens), bound: addBound(measured.other.bound, property.bound) };
    all = { requests: all.requests + c.requests, tokens: addTokens(all.tokens, c.tokens), bound: addBound(all.bound, c.bound) };
    expectedPico += costOfUse(spec, model, c.tokens, pricedAt);
    // Every prompt token of the bound a cache miss: the dearer input price.
    boundPico += costOfUse(spec, model, { promptTokens: c.bound.promptTokens, completionTokens: c.bound.completionTokens, cacheHitTokens: 0 }, pricedAt);
  }
  return {
    method: 'plan-profile',
    requests: all.requests,
    expected: { promptTokens: all.tokens.promptTokens, completionTokens: all.tokens.completionTokens, costUsd: formatUsd(expectedPico, 6) },
    upperBound: { promptTokens: all.bound.promptTokens, completionTokens: all.bound.completionTokens, costUsd: formatUsd(boundPico, 6), uncappedRequests: all.bound.unbounded },
  };
}
