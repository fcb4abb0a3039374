/**
 * Evidence: one request and what came back, as the harness saw it. Credentials never appear here:
 * headers are stored redacted, and anything that echoes a secret is scrubbed before it is kept.
 */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** The JSON body sent, or the raw text when the body was deliberately not JSON. */
  body?: unknown;
  rawBody?: string;
}

export interface RecordedEvent {
  /** Milliseconds since the response headers arrived. */
  at: number;
  /** `data` of an SSE event, or a comment line (prefixed `:`). */
  data: string;
  event?: string;
}

export interface RecordedResponse {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON body when it parsed; otherwise `text` holds what arrived (cut at a limit). */
  body?: unknown;
  text?: string;
  /** For an SSE response: every event in order of arrival. */
  events?: RecordedEvent[];
  /** True when the body was cut at the size limit. */
  truncated?: boolean;
  durationMs: number;
}

export interface Exchange {
  request: RecordedRequest;
  response?: RecordedResponse;
  /**
   * Set when no complete response came back (refused, reset, timed out), or when the body that came
   * could not be read as asked (not JSON, not UTF-8, too long, broken stream framing).
   */
  error?: { code: string; message: string };
  /** Attempts made (retries included). */
  attempts: number;
  /**
   * Set when the answer's Retry-After asked for a longer wait than the description's back-off cap
   * (`errors.retry.max_delay_seconds`): it was not waited out, and is the request's last answer, a
   * refusal. Both in milliseconds.
   */
  beyondCap?: { askedMs: number; capMs: number };
}
