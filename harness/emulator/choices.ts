import type { Spec } from '#harness/spec/model.ts';
import type { Refusal } from './http/refusal.ts';
import { MESSAGES_BASE_PATH, MESSAGES_PATH } from '#harness/core/messagesPaths.ts';
import { retryAfterSeconds } from './state/retryAfter.ts';

/**
 * Where the description leaves the emulator a choice, the choice is made here, once, and each names
 * a status of the spec's error table (checked to exist, so a spec change cannot leave it dangling).
 * The harness reports checks of these points as advisory: they are not the contract.
 */
export const CHOICES = {
  /** "Request path under this base: not shown": the messages base and endpoint (core/messagesPaths.ts). */
  messagesBasePath: MESSAGES_BASE_PATH,
  messagesPath: MESSAGES_PATH,
  /** "Status code for retired aliases: not shown": 404, the error table's "Model not found". */
  retiredAliasStatus: 404,
  /** Ids only "listed by id in the product overview" have no request details: refused as unknown. */
  listedOnlyStatus: 404,
  /** Thinking when a current model's request has no `thinking` field: not stated; Non-Think. */
  thinkingByDefault: false,
  /** An address the spec does not serve. */
  unknownPathStatus: 404,
  /**
   * Fill-in-the-middle with `stream: true`: the description's FIM table lists no `stream` field; the
   * provider's public FIM reference (FIM Completion (Beta), POST /beta/completions) lists `stream` and
   * `stream_options` and answers SSE chunks of the legacy completions format. Hence streamed, not
   * refused: `text_completion` chunks with `choices[0].text` pieces, a final chunk with
   * `finish_reason` and `usage` (as chat streams send it), then `data: [DONE]`.
   */
  fimStreams: true,
} as const;

export function statusRow(spec: Spec, status: number): number {
  if (!spec.errors.statuses[String(status)]) throw new Error(`emulator choice names status ${status}, which the spec's error table does not list`);
  return status;
}

export function refusal(spec: Spec, status: number, message: string, code: string, param: string | null = null, type = 'invalid_request_error'): Refusal {
  return { status: statusRow(spec, status), message, type, code, param };
}

/** The emulator's words for what it answers outside any rule: a key over its limit, maintenance, an error of its own. */
const SERVICE_REFUSALS = {
  429: { message: 'too many requests in flight for this key', type: 'rate_limit_error', code: 'rate_limit_exceeded' },
  503: { message: 'the service is under maintenance; retry later', type: 'service_unavailable', code: 'overloaded' },
  500: { message: 'internal error', type: 'server_error', code: 'internal_error' },
} as const;

/**
 * A 429, 503 or 500 as the emulator answers it (and the harness's upstream, on purpose:
 * targets/upstreamTarget.ts); a 429 or 503 carries Retry-After, the spec's unless `retryAfterSeconds` is given.
 */
export function serviceRefusal(spec: Spec, status: keyof typeof SERVICE_REFUSALS, options: { message?: string; retryAfterSeconds?: number } = {}): Refusal {
  const words = SERVICE_REFUSALS[status];
  const wait = status === 500 ? undefined : (options.retryAfterSeconds ?? retryAfterSeconds(spec, status));
  return { status: statusRow(spec, status), ...words, message: options.message ?? words.message, param: null, ...(wait === undefined ? {} : { headers: { 'retry-after': String(wait) } }) };
}
