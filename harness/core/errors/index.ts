export { HarnessError, isHarnessError } from './HarnessError.ts';
export { SpecInvalidError, isSpecInvalidError, formatSpecIssue, type SpecIssue } from './SpecInvalidError.ts';
export { UsageError, isUsageError } from './UsageError.ts';
