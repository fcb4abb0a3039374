import { HarnessError } from '#harness/core/errors/index.ts';

/**
 * A file that should hold a run record does not: unreadable, not JSON, or not the shape of
 * reports/report.schema.json. The message names the file and every problem found (input error,
 * exit code 2).
 */
export class ReportInvalidError extends HarnessError {
  readonly file: string;
  readonly problems: readonly string[];

  constructor(file: string, problems: readonly string[], options?: { cause?: unknown }) {
    const shown = problems.slice(0, 10).map((p) => `  ${p}`);
    const more = problems.length > 10 ? [`  ... and ${problems.length - 10} more`] : [];
    super('HARNESS_REPORT_INVALID', [`${file}: not a svc-conformance run record:`, ...shown, ...more].join('\n'), {
      exitCode: 2,
      ...(options?.cause === undefined ? {} : { cause: options.cause }),
    });
    this.name = 'ReportInvalidError';
    this.file = file;
    this.problems = problems;
  }
}

export function isReportInvalidError(value: unknown): value is ReportInvalidError {
  return value instanceof ReportInvalidError;
}
