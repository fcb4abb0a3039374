import { HarnessError } from './errors/index.ts';

/**
 * A fixture set built from real captures answers only the requests it holds a capture for. Its
 * replay server marks every other answer with this header (its value says why), and the run turns
 * such an answer into a skip ("not recorded"), not a failure: the endpoint was never asked, so there
 * is nothing to judge. So does a recording whose manifest cannot tell which checks it holds. A
 * recording that lists them never sets it: a check it did not record is not run, and a request of
 * a recorded check that nothing answers fails that check.
 */
export const NOT_CAPTURED_HEADER = 'x-svc-conformance-not-captured';

export class NotCapturedError extends HarnessError {
  constructor(why: string) {
    super('HARNESS_NOT_CAPTURED', `not recorded: ${why}`);
    this.name = 'NotCapturedError';
  }
}

export function isNotCaptured(value: unknown): value is NotCapturedError {
  return value instanceof NotCapturedError;
}
