import { redactValue } from '#harness/core/redact.ts';
import { headOf, type CheckResult, type TokenUse } from '#harness/core/outcome.ts';
import { addTokens, NO_TOKENS, spentOf } from '#harness/core/tokens.ts';
import type { Check } from '#harness/checks/index.ts';
import { createCheckContext } from './checkContext.ts';
import { CheckTracker } from './checkTracker.ts';
import { executeCheck, resultHead } from './execute.ts';
import { blockedByRefusedKey } from './keyRefused.ts';
import { notRunForBudget } from './spend/budgetLedger.ts';
import { loadNotRecordedReason, notRecordedReason } from '#harness/replay/recordedChecks.ts';
import { loadShareOf, type EndpointSettings } from './runConfig.ts';
import { secretsOf, type RunScope } from './runScope.ts';
import { leftOutByCheck, outOfScope } from '#harness/spec/features.ts';
import { chainOf } from './schedule.ts';

/**
 * One check on one model of a target run, metered: tokens are what the answers reported, whoever
 * read them. What the runner (runChecks.ts) runs per check. `spent`: tokens spent on the check's
 * account before it ran (the load phase's, on its first check's): its own, whether it runs or not.
 */
export async function runMetered(scope: RunScope, check: Check, model: string, onTracked?: (t: CheckTracker) => void, spent: TokenUse = NO_TOKENS): Promise<CheckResult> {
  const { spec, config, meter } = scope;
  const notRun = (skipKind: 'not-recorded' | 'out-of-scope' | 'budget', reason: string): CheckResult => ({ ...resultHead(check, model), verdict: 'skip', skipKind, reason, durationMs: 0, ...spentOf(spent) });
  // A replay answers only what it recorded: another check would get another check's bytes.
  const unrecorded = notRecordedReason(config.target.recording, check.id, model) ?? (check.phase === 'load' ? loadNotRecordedReason(config.target.recording, loadShareOf(config)) : undefined);
  if (unrecorded !== undefined) return notRun('not-recorded', unrecorded);
  const leftOut = leftOutByCheck(spec, config.without ?? [], check.specRefs);
  if (leftOut !== undefined) return notRun('out-of-scope', outOfScope(leftOut));
  if (meter.reached()) return notRun('budget', notRunForBudget(config.budget?.limitUsd ?? '?'));
  const tracker = new CheckTracker(meter, spec);
  const ctx = createCheckContext(spec, config, scope.transport, model, tracker, scope, chainOf(check, config.runs));
  const result = await executeCheck(check, ctx, { settle: () => addTokens(spent, tracker.settle()), judged: () => tracker.judged() }, config.apiKeyEnv, headerVariablesOf(config));
  onTracked?.(tracker);
  // A check cut short by the budget judged nothing, whatever it made of the refused request.
  let final = result;
  if (tracker.budgetStop !== undefined) {
    final = { ...headOf(result), verdict: 'skip', skipKind: 'budget', reason: tracker.budgetStop };
  }
  // A verdict that took retries says how many attempts (a 5xx asked again is never a verdict on one try).
  if (tracker.attempts > tracker.requests) final = { ...final, attempts: { requests: tracker.requests, attempts: tracker.attempts } };
  // A refused key judged nothing that needed it (keyRefused.ts); runChecks reviews the checks that ended before it was declared.
  const refused = scope.transport.keyRefused();
  if (refused !== undefined) final = blockedByRefusedKey(final, tracker.auth, refused);
  // Checks read raw answers: an endpoint that echoes the key would put it in a failure message.
  return redactValue(final, secretsOf(config));
}

/** Reproducers read env-sourced headers back from their variables. */
const headerVariablesOf = (config: Pick<EndpointSettings, 'extraHeaders'>): Record<string, string> => Object.fromEntries((config.extraHeaders ?? []).filter((h) => h.env !== undefined).map((h) => [h.name.toLowerCase(), h.env!]));
