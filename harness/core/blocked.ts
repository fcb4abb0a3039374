import { HarnessError } from './errors/index.ts';
import type { Exchange } from './exchange.ts';
import type { SkipKind } from './outcome.ts';

/**
 * The check a block is left to, as data: the route's served check, and the answer that showed the
 * route not served (`unavailable`: it answered "not now" on every try, which shows nothing either way).
 */
export interface BlockedBy {
  check: string;
  evidence?: Exchange;
  unavailable?: true;
}

/**
 * A check whose request goes to an endpoint the target does not serve is not judged again: the
 * endpoint's own `endpoint.*.served` check reports the one must failure, and the check is skipped,
 * "blocked by" it. A feature the run leaves out (`--without`) skips its checks "out of scope".
 */
export class BlockedError extends HarnessError {
  readonly kind: Extract<SkipKind, 'blocked' | 'out-of-scope'>;
  readonly by: BlockedBy | undefined;
  constructor(reason: string, kind: Extract<SkipKind, 'blocked' | 'out-of-scope'> = 'blocked', by?: BlockedBy) {
    super('HARNESS_BLOCKED', reason);
    this.name = 'BlockedError';
    this.kind = kind;
    this.by = by;
  }
}

export function isBlocked(value: unknown): value is BlockedError {
  return value instanceof BlockedError;
}
