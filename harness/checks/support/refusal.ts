import type { Failure } from '#harness/core/outcome.ts';
import type { Expectation } from '#harness/spec/model.ts';
import type { CheckContext, CheckResponse } from '../context.ts';
import { failure, schemaFailure, statusFailure } from './outcome.ts';
import { readJson } from './body.ts';

/** Statuses an expectation allows, or undefined for "any error" (status not stated). */
export function allowedStatuses(expect: Expectation): number[] | undefined {
  if (expect.status !== undefined) return [expect.status];
  if (expect.status_any_of) return expect.status_any_of;
  return undefined;
}

/**
 * A refusal as the spec wants it: the status it names (or any 4xx where it names none) and a body
 * that is a well-formed error envelope at must level.
 */
export async function judgeRefusal(ctx: CheckContext, res: CheckResponse, expect: Expectation, what: string): Promise<Failure[]> {
  const allowed = allowedStatuses(expect);
  if (allowed ? !allowed.includes(res.status) : res.status < 400 || res.status >= 500) {
    const want = allowed ? allowed.join(' or ') : 'an error status (4xx; the spec does not name one)';
    // The status is the finding: an answer accepted (a generation that may run to max_tokens) is not read to its end.
    if (res.status >= 400) await readJson(res);
    return [statusFailure(what, res, want)];
  }
  const read = await readJson(res);
  if (!read.ok) {
    return [failure(`${what}: refused with ${res.status}; the description says errors carry a JSON body, but ${read.why}`, res, { specRef: 'errors.envelope' })];
  }
  const broken = ctx.judge('error_envelope', read.body).filter((v) => v.level === 'must');
  return broken.map((v) => schemaFailure(v, res, `${what}: refused with ${res.status}, but the envelope is not well-formed: `));
}

