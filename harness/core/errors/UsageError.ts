import { HarnessError } from './HarnessError.ts';

/** A bad command line: unknown flag, bad value. Exit code 2, message names the flag. */
export class UsageError extends HarnessError {
  constructor(message: string) {
    super('HARNESS_USAGE', message, { exitCode: 2 });
    this.name = 'UsageError';
  }
}

export function isUsageError(value: unknown): value is UsageError {
  return value instanceof UsageError;
}
