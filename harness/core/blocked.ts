import { HarnessError } from './errors/index.ts';
import type { SkipKind } from './outcome.ts';

/**
 * A check whose request goes to an endpoint the target does not serve is not judged again: the
 * endpoint's own `endpoint.*.served` check reports the one must failure, and the check is skipped,
 * "blocked by" it. A feature the run leaves out (`--without`) skips its checks "out of scope".
 */
export class BlockedError extends HarnessError {
  readonly kind: Extract<SkipKind, 'blocked' | 'out-of-scope'>;
  constructor(reason: string, kind: Extract<SkipKind, 'blocked' | 'out-of-scope'> = 'blocked') {
    super('HARNESS_BLOCKED', reason);
    this.name = 'BlockedError';
    this.kind = kind;
  }
}

export function isBlocked(value: unknown): value is BlockedError {
  return value instanceof BlockedError;
}
