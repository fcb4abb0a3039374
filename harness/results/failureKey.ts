import type { Failure } from '#harness/core/outcome.ts';
import { ARRAY_INDEX, defectOf, folded, headlineOf } from './causes.ts';

/**
 * A failure's stable key, as schemathesis keys its failures: the check, the kind of cause, and
 * where: `check at:/usage/total_tokens` (a place in the judged body, array indices folded to `*`),
 * `check status:200` (what the endpoint answered, when the failure names no place), `check
 * transport:HARNESS_RESET` (no complete answer), `check class:type messages string` (the class of
 * request a status answered, for a check that sends many), `check wait:429` (a refusal that asked
 * for a wait beyond the back-off cap), else `check said:<the message, counts folded>`.
 * The same defect gives the same key run after run, whatever the answer's text or ids; `diff`
 * tells a check that fails for another cause from one that fails as before.
 */
export function failureKey(checkId: string, f: Failure): string {
  const d = defectOf(f);
  if (d.kind === 'status' && d.sent !== undefined) return `${checkId} class:${d.sent}`;
  if (d.kind === 'wait') return `${checkId} wait:${d.status}`;
  const path = 'path' in d && d.path !== undefined ? d.path : f.path;
  if (path !== undefined) return `${checkId} at:${path.replace(ARRAY_INDEX, '/*')}`;
  const status = d.kind === 'status' ? d.got : f.evidence?.response?.status;
  if (status !== undefined) return `${checkId} status:${status}`;
  if (d.kind === 'transport') return `${checkId} transport:${d.code}`;
  return `${checkId} said:${folded(headlineOf(d))}`;
}
