import type { Failure } from '#harness/core/outcome.ts';
import { foldSse } from '#harness/core/sseFold.ts';
import type { Expectation, Spec } from '#harness/spec/model.ts';
import type { CheckContext, CheckRequest, CheckResponse } from '../context.ts';
import { isObject } from './body.ts';
import { failure } from './outcome.ts';
import { allowedStatuses, judgeRefusal } from './refusal.ts';
import { sample, type SharedAnswer } from './samples.ts';

/**
 * A refusal's streamed twin: the same invalid request with `stream: true`. The description gives one
 * status and one error envelope per error, whatever `stream` says, so the twin is refused as the
 * unstreamed request is; servers in the field answer it 200 with an SSE error event
 * (clawrouter#101) or 500 (ai-dial-adapter-openai#529).
 */

/** The suffix of a twin's check id (as a rule's effect judged on a stream: checks/rule/rules.ts). */
export const STREAMED = '.streamed';

/** Whether an endpoint's request can carry `stream`: its request object has the field (the chat request; FIM and the messages format have none). */
export function carriesStream(spec: Spec, endpoint: string): boolean {
  const object = spec.endpoints[endpoint]?.request;
  return typeof object === 'string' && spec.objects[object]?.fields.stream !== undefined;
}

/** The request with `stream: true`, or undefined where it cannot carry it (a body that is not a JSON object, or not JSON). */
export function streamedTwinOf(request: CheckRequest): CheckRequest | undefined {
  if (request.rawBody !== undefined || !isObject(request.body)) return undefined;
  return { ...request, body: { ...request.body, stream: true } };
}

/**
 * Both twins asked at once, through the run's store: whichever of the two checks asks first sends
 * both in one round trip, and the other reads the same answers. No control of its own: the twin's
 * refusal is credited on the unstreamed twin's control.
 */
export function askTwins(ctx: CheckContext, request: CheckRequest, twin: CheckRequest): { plain: Promise<SharedAnswer>; streamed: Promise<SharedAnswer> } {
  // The twin read to its first event, then closed: a refusal shows there, and a stream of chunks is
  // a generation (max_tokens beyond its bound) that is never read, nor waited for, to its end.
  return { plain: sample(ctx, request), streamed: sample(ctx, twin, 'head') };
}

/**
 * The streamed twin's answer judged as a refusal: the status and envelope the unstreamed one must
 * have. A 2xx stream carrying an error event is a refusal not made, with the event quoted. Where the
 * unstreamed twin was answered the same status and fails too, the defect is one: it is handed to
 * `unstreamedCheck` (it stands where that check does not fail); otherwise the unstreamed answer is its comparison.
 */
export async function judgeStreamedRefusal(ctx: CheckContext, seen: SharedAnswer, plain: CheckResponse | undefined, expect: Expectation, what: string, unstreamedCheck: string): Promise<Failure[]> {
  const sent = `${what} (sent with stream: true)`;
  const streamed = seen.res;
  const errorEvent = streamed.status < 300 ? errorEventOf(seen) : undefined;
  const failures = errorEvent !== undefined ? [errorEventFailure(sent, streamed, expect, errorEvent)] : await judgeRefusal(ctx, streamed, expect, sent);
  if (failures.length === 0 || plain === undefined) return failures;
  // The unstreamed answer failing too, with the same status: the unstreamed check's defect, on its own answer.
  if (plain.status === streamed.status && (await judgeRefusal(ctx, plain, expect, what)).length > 0) return failures.map((f) => ({ ...f, ownedBy: unstreamedCheck }));
  return failures.map((f) => ({ ...f, message: `${f.message}; the same request unstreamed was answered HTTP ${plain.status}`, comparison: plain.exchange }));
}

/**
 * The twin's first data event (or, served as anything but a stream, the first of the events its
 * body holds), where it is an error object: the one event a 2xx refusal-not-made shows.
 */
function errorEventOf(seen: SharedAnswer): string | undefined {
  if (seen.first !== undefined) return errorObjectIn(seen.first.data);
  const text = seen.res.exchange.response?.text;
  return typeof text === 'string' ? foldSse(text).events.flatMap((e) => (e.kind === 'data' ? [errorObjectIn(e.data)] : [])).find((d) => d !== undefined) : undefined;
}

/** The data of an event, where it is an error object (`{"error": {...}}`). */
export function errorObjectIn(data: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(data);
    return isObject(parsed) && parsed.error !== undefined ? data : undefined;
  } catch {
    // A data event that is not JSON is no error object.
    return undefined;
  }
}

function errorEventFailure(what: string, res: CheckResponse, expect: Expectation, event: string): Failure {
  const expected = allowedStatuses(expect)?.join(' or ') ?? 'an error status (4xx; the spec does not name one)';
  const quoted = event.length > 240 ? `${event.slice(0, 240)}...` : event;
  return failure(`${what}: answered HTTP ${res.status} with an error event in the stream, not refused (expected HTTP ${expected}): data: ${quoted}`, res, { defect: { kind: 'status', expected, got: res.status } });
}
