import { HarnessError } from '#harness/core/errors/index.ts';

/**
 * Shard records that cannot be merged into one: the same check ran twice, or the shards disagree
 * on what they ran against (spec revision, options...). The message names the cell and the clash.
 */
export class MergeConflictError extends HarnessError {
  readonly baseUrl: string;
  readonly model: string;

  constructor(baseUrl: string, model: string, problem: string) {
    super('HARNESS_REPORT_MERGE', `cannot merge the records of ${baseUrl} (model ${model}): ${problem}`, { exitCode: 2 });
    this.name = 'MergeConflictError';
    this.baseUrl = baseUrl;
    this.model = model;
  }
}

export function isMergeConflictError(value: unknown): value is MergeConflictError {
  return value instanceof MergeConflictError;
}
