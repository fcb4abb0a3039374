import { HttpResponse } from 'msw';
import { NOT_CAPTURED_HEADER } from '#harness/core/notCaptured.ts';
import type { RequestKey } from './requestKey.ts';

/** Status of the answer to a request nothing was recorded for (outside what any real server sends). */
export const NOT_RECORDED_STATUS = 599;

/**
 * The replay server's answer to an unhandled request: an error body naming it. `partial` (a set
 * built from captures) adds NOT_CAPTURED_HEADER, so the run skips that check instead of failing it.
 */
export function notRecorded(req: RequestKey, partial: boolean): Response {
  const what = `${req.method} ${req.path ?? ''}${req.canonical ? ` (body hash ${req.bodyHash})` : ''}${req.secret === null ? ' without the key' : req.secret === 1 ? ' with the empty-balance key' : ''}`;
  return HttpResponse.json(
    { error: { message: `no recording for ${what}`, type: 'fixture_not_found', code: 'fixture_not_found' } },
    { status: NOT_RECORDED_STATUS, ...(partial ? { headers: { [NOT_CAPTURED_HEADER]: what } } : {}) },
  );
}
