import { HttpResponse } from 'msw';
import { NOT_CAPTURED_HEADER } from '#harness/core/notCaptured.ts';
import type { RequestKey } from './requestKey.ts';

/** Status of the answer to a request nothing was recorded for (outside what any real server sends). */
export const NOT_RECORDED_STATUS = 599;

/**
 * The replay server's answer to an unhandled request: an error body naming it. `skip` says whether
 * NOT_CAPTURED_HEADER goes with it, so the run skips that check as not recorded instead of failing
 * it: `capture` for a set built from captures, `unlisted` for a recording whose manifest does not
 * list the checks it holds (a miss may be a check it never ran); `fail` where the recorded checks
 * are known, so a miss is a recorded check's request that the replay no longer matches.
 */
export function notRecorded(req: RequestKey, skip: 'capture' | 'unlisted' | 'fail'): Response {
  const what = `${req.method} ${req.path ?? ''}${req.canonical ? ` (body hash ${req.bodyHash})` : ''}${req.secret === null ? ' without the key' : req.secret === 1 ? ' with the empty-balance key' : ''}`;
  return HttpResponse.json(
    { error: { message: `no recording for ${what}`, type: 'fixture_not_found', code: 'fixture_not_found' } },
    { status: NOT_RECORDED_STATUS, ...(skip === 'fail' ? {} : { headers: { [NOT_CAPTURED_HEADER]: `${skip === 'capture' ? 'the fixture set holds no capture answering' : 'the recording (its manifest lists no checks) holds nothing answering'} ${what}` } }) },
  );
}
