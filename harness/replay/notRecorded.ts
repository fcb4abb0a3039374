import { HttpResponse } from 'msw';
import { NOT_CAPTURED_HEADER } from '#harness/core/notCaptured.ts';
import type { RequestKey } from './requestKey.ts';

/** Status of the answer to a request nothing was recorded for (outside what any real server sends). */
export const NOT_RECORDED_STATUS = 599;

/** What a recording is, for saying what it lacks: a set built from captures, one whose manifest lists no checks, or one that lists them. */
export type RecordingKind = 'capture' | 'unlisted' | 'listed';

const GAP: Readonly<Record<RecordingKind, (what: string) => string>> = {
  capture: (what) => `the fixture set holds no capture answering ${what}`,
  unlisted: (what) => `the recording (its manifest lists no checks) holds nothing answering ${what}`,
  listed: (what) => `the recording holds no answer to ${what}, a request of a check it recorded: this harness no longer sends what was recorded (record again)`,
};

/**
 * The replay server's answer to an unhandled request: an error body naming it, marked with
 * NOT_CAPTURED_HEADER saying what the recording lacks. The run turns it into a skip ("not
 * recorded"): the gap is the recording's, never evidence about the endpoint, and its status is no
 * status the endpoint sent.
 */
export function notRecorded(req: RequestKey, kind: RecordingKind): Response {
  const what = `${req.method} ${req.path ?? ''}${req.canonical ? ` (body hash ${req.bodyHash})` : ''}${req.secret === null ? ' without the key' : req.secret === 1 ? ' with the empty-balance key' : ''}`;
  return HttpResponse.json(
    { error: { message: `no recording for ${what}`, type: 'fixture_not_found', code: 'fixture_not_found' } },
    { status: NOT_RECORDED_STATUS, headers: { [NOT_CAPTURED_HEADER]: GAP[kind](what) } },
  );
}
