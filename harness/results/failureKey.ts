import type { Failure } from '#harness/core/outcome.ts';
import { ARRAY_INDEX, causeKey } from './causes.ts';

/**
 * A failure's stable key, as schemathesis keys its failures: the check, the kind of cause, and
 * where: `check at:/usage/total_tokens` (a place in the judged body, array indices folded to `*`),
 * `check status:200` (what the endpoint answered, when the failure names no place), `check
 * transport:HARNESS_RESET` (no complete answer), else `check said:<the message, counts folded>`.
 * The same defect gives the same key run after run, whatever the answer's text or ids; `diff`
 * tells a check that fails for another cause from one that fails as before.
 */
export function failureKey(checkId: string, f: Failure): string {
  if (f.path !== undefined) return `${checkId} at:${f.path.replace(ARRAY_INDEX, '/*')}`;
  const status = f.evidence?.response?.status;
  if (status !== undefined) return `${checkId} status:${status}`;
  const code = f.evidence?.error?.code;
  if (code !== undefined) return `${checkId} transport:${code}`;
  return `${checkId} said:${causeKey(f.message)}`;
}
