import { HarnessError } from './errors/index.ts';

/**
 * A fixture set built from real captures answers only the requests it holds a capture for. Its
 * replay server marks every other answer with this header, and the run turns such an answer into
 * a skip ("nothing captured"), not a failure: the endpoint was never asked, so there is nothing to
 * judge. A complete recording never sets it: there, a request nothing answers fails its check.
 */
export const NOT_CAPTURED_HEADER = 'x-svc-conformance-not-captured';

export class NotCapturedError extends HarnessError {
  constructor(what: string) {
    super('HARNESS_NOT_CAPTURED', `the fixture set holds no capture answering ${what}`);
    this.name = 'NotCapturedError';
  }
}

export function isNotCaptured(value: unknown): value is NotCapturedError {
  return value instanceof NotCapturedError;
}
