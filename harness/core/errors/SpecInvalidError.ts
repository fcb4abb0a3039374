import { HarnessError } from './HarnessError.ts';

/** One problem in one spec file, located as precisely as the YAML allows. */
export interface SpecIssue {
  /** Path of the file, as given to the loader (relative to the working directory when possible). */
  file: string;
  /** 1-based; 0 when the problem has no place in a file (a missing file). */
  line: number;
  column: number;
  /** JSON-pointer-like path inside the file, e.g. `/rules/3/when/0/field`. */
  path: string;
  message: string;
}

export function formatSpecIssue(issue: SpecIssue): string {
  const where = issue.line > 0 ? `${issue.file}:${issue.line}:${issue.column}` : issue.file;
  return `${where} ${issue.path || '/'}: ${issue.message}`;
}

export class SpecInvalidError extends HarnessError {
  readonly issues: readonly SpecIssue[];

  constructor(issues: readonly SpecIssue[]) {
    const shown = issues.slice(0, 20).map((i) => `  ${formatSpecIssue(i)}`);
    const more = issues.length > 20 ? [`  ... and ${issues.length - 20} more`] : [];
    super(
      'HARNESS_SPEC_INVALID',
      [`the spec does not load (${issues.length} problem${issues.length === 1 ? '' : 's'}):`, ...shown, ...more].join('\n'),
    );
    this.name = 'SpecInvalidError';
    this.issues = issues;
  }
}

export function isSpecInvalidError(value: unknown): value is SpecInvalidError {
  return value instanceof SpecInvalidError;
}
