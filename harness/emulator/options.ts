import type { Clock } from '#harness/core/clock.ts';
import type { Spec } from '#harness/spec/model.ts';
import type { FaultId } from './faults/catalogue.ts';

export interface KeyBalance {
  currency: string;
  granted: string;
  toppedUp: string;
}

export interface EmulatorOptions {
  spec: Spec;
  /** Keys the emulator accepts (Bearer on every base; x-api-key too on the messages base). */
  apiKeys: readonly string[];
  /** Keys that were valid once and are revoked: 401, like any other bad key. */
  revokedKeys?: readonly string[];
  /** The emulator's clock. Lifecycle, `created`, pricing windows and the cache all read it. */
  now?: Clock;
  faults?: readonly FaultId[];
  /** Seed of the deterministic text generator. */
  seed?: number;
  /** Requests one key may have in flight; beyond it, 429 with Retry-After. */
  concurrencyPerKey?: number;
  /**
   * Requests the service serves at once, across every key (unset: no such limit). Beyond it a request
   * waits in a FIFO queue of `queueBound`; once the queue is full, 429 with Retry-After. With it set,
   * a stream's events also come further apart as the requests in flight rise (context.ts `streamPause`).
   */
  capacity?: number;
  /** Requests that may wait for a slot of `capacity` (default: `capacity`; 0: refuse at once). Needs `capacity`. */
  queueBound?: number;
  /** While true, every request is answered 503 (maintenance). */
  maintenance?: boolean;
  /** Starting balance of every key, and of particular keys. */
  balance?: KeyBalance;
  balances?: Readonly<Record<string, KeyBalance>>;
  /** Milliseconds between two stream events (0: the next turn of the event loop). */
  streamIntervalMs?: number;
  /** Milliseconds before every answer's headers, as a hosted endpoint far away takes (0: none). */
  latencyMs?: number;
  /** Up to this many milliseconds more, drawn per request from the seeded generator (0: none). */
  latencyJitterMs?: number;
}
