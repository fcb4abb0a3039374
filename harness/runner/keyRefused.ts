import { headOf, type CheckResult } from '#harness/core/outcome.ts';
import { skipKindOf } from '#harness/results/index.ts';
import type { KeyRefused } from '#harness/transport/index.ts';
import type { CheckTracker } from './checkTracker.ts';

/**
 * The one line a run whose key the endpoint refused (transport/keyRefusal.ts) ends with: what
 * happened and what to check. It names the variable, never its value.
 */
export function keyRefusedMessage(refused: KeyRefused, apiKeyEnv: string, baseUrl: string): string {
  return `the endpoint refused the API key: every authenticated request was answered ${refused.status} (${refused.count} of ${refused.count}). Check that $${apiKeyEnv} (--api-key-env) holds a key for ${baseUrl}.`;
}

/** What a check that sent nothing has done with the key. */
export const NO_REQUESTS: CheckTracker['auth'] = { keyed: 0, keyless: 0, refusedWithKey: 0 };

/**
 * A check's result once the run's key was refused. Only a check that sent requests, none of them
 * with the key (the auth checks sending a wrong or no key on purpose), may have judged the endpoint,
 * and not even those when their control with the key was refused before it was sent; any
 * other was refused before sending, or judged nothing but the refusal of the key (a 401 where it
 * expected an answer, or a served-verdict or sample built on one): skipped, blocked by the key. A
 * check skipped for a reason of its own (out of scope, not applicable, not recorded, the budget, a
 * stop) keeps it: that says nothing of the key.
 */
export function blockedByRefusedKey(result: CheckResult, auth: CheckTracker['auth'], refused: KeyRefused): CheckResult {
  // A keyless check whose control with the key could not be sent (the auth checks credit a refusal only where the key is accepted) judged nothing either.
  const controlRefused = result.verdict === 'error' && result.cause?.code === 'HARNESS_KEY_REFUSED';
  if (auth.keyless > 0 && auth.keyed === 0 && !controlRefused) return result;
  const kind = skipKindOf(result);
  if (kind !== undefined && kind !== 'inconclusive' && kind !== 'blocked') return result;
  const what = `the key was refused (every authenticated request was answered ${refused.status})`;
  const reason = controlRefused
    ? `not judged: ${what}; a refusal of its own request shows nothing where the same request with the run's key is refused too`
    : auth.refusedWithKey > 0 ? `not judged: ${what}; its own requests with the key were answered ${refused.status} too` : `not sent: ${what}`;
  return { ...headOf(result), verdict: 'skip', skipKind: 'blocked', reason };
}
