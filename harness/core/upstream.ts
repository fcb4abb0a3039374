/**
 * The upstream side of a gateway run (issue 33): the harness serves the service behind the gateway
 * (`run --upstream-port`), or taps a real one (`--upstream-url`), and records every request the
 * gateway sent it. Shared by the gateway layer that serves it, the runner that wires it, and the
 * checks that judge the pair; a recording keeps the exchanges (fixtures' `upstream.json`).
 */

/** One request a gateway sent upstream and what it was answered, as the upstream saw both. */
export interface UpstreamExchange {
  /** The marker of the client request that caused it (core/marker.ts), when its body carries one. */
  marker: string | undefined;
  /** Milliseconds from the upstream's start to the request's arrival: retry waits are judged by it. */
  at: number;
  request: { method: string; path: string; headers: Record<string, string>; body: string };
  response: { status: number; headers: Record<string, string>; body: string };
  /** What the upstream did on purpose (UpstreamFault), when it did. */
  fault?: string;
  /**
   * A stream sent in lockstep: the event after which the upstream waited the whole bounded wait
   * without the client side having received that event's text (the gateway held it back).
   */
  stalledAfter?: { event: number; waitedMs: number };
}

/**
 * What the harness's upstream answers one marked request with, instead of the plain answer:
 * - `status`: the first `times` requests carrying the marker get `status` (429 with Retry-After),
 *   later ones the plain answer (a gateway that asks again gets through);
 * - `cut`: the stream breaks off after `afterEvents` events, with no end;
 * - `lockstep`: each event carrying text is sent only once the client side has received the one
 *   before, or `waitMs` has passed (a gateway that holds the stream shows as a stall);
 * - `finish`: the answer ends for another cause: every `finish_reason` it gives (a chat answer)
 *   becomes `finishReason`, every `stop_reason` (a messages-format answer) `stopReason` (a cause
 *   the emulator never answers with on its own, such as `content_filter`).
 */
export type UpstreamFault =
  | { kind: 'status'; status: number; times: number; retryAfterSeconds?: number }
  | { kind: 'cut'; afterEvents: number }
  | { kind: 'lockstep'; waitMs: number }
  | { kind: 'finish'; finishReason: string; stopReason: string };

/** How the upstream is served: the embedded emulator (faults on purpose possible), a tap in front of a real service, or a recording of either. */
export type UpstreamKind = 'emulator' | 'tap' | 'recorded';

/** The upstream side as the run sees it: a live one, or a recording's. */
export interface UpstreamSide {
  kind: UpstreamKind;
  /** Where the gateway reaches it (live), or reached it (recorded). */
  url: string;
  /** True when any key is accepted (no --upstream-key-env): the run says so. */
  anyKey: boolean;
  /** Whether requests can be answered with faults on purpose (the emulator served, or a recording of it). */
  faults: boolean;
  /** Every exchange carrying `marker`, once each begun has been read to its end. */
  exchanges(marker: string): Promise<UpstreamExchange[]>;
  /** Every exchange so far, settled. */
  all(): Promise<UpstreamExchange[]>;
  /** Answer the requests carrying `marker` with `fault` (a live emulator only; elsewhere nothing happens). */
  plan(marker: string, fault: UpstreamFault): void;
  /** The client side has received `chars` characters of the answer's text for `marker` (lockstep). */
  seen(marker: string, chars: number): void;
  close(): Promise<void>;
}

/** A short name of a fault, for reports: `status 429 x1`, `cut after 3 events`, `lockstep`. */
export function faultName(f: UpstreamFault): string {
  switch (f.kind) {
    case 'status':
      return `status ${f.status} x${f.times}`;
    case 'cut':
      return `cut after ${f.afterEvents} events`;
    case 'lockstep':
      return 'lockstep';
    case 'finish':
      return `finish ${f.finishReason}`;
  }
}

/** What a run's config says of its upstream (plain data): the runner finds the live side by `id` (gateway/held.ts). */
export interface UpstreamRef {
  id: string;
  kind: UpstreamKind;
  url: string;
  anyKey: boolean;
}
