/**
 * The harness could not do its job (bad spec, bad flag, unreachable target...). A check that meets
 * one ends as `errored`, never `failed`: a HarnessError says nothing about the endpoint.
 */
export class HarnessError extends Error {
  readonly code: `HARNESS_${string}`;
  /** Exit code a command should end with when this error stops it. */
  readonly exitCode: number;

  constructor(code: `HARNESS_${string}`, message: string, options?: { cause?: unknown; exitCode?: number }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'HarnessError';
    this.code = code;
    this.exitCode = options?.exitCode ?? 2;
  }
}

export function isHarnessError(value: unknown): value is HarnessError {
  return value instanceof HarnessError;
}
