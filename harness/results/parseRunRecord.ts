import { readFileSync } from 'node:fs';
import type { ValidateFunction } from 'ajv';
import { createAjv } from '#harness/core/createAjv.ts';
import { isRecord } from '#harness/core/isRecord.ts';
import type { RunRecord } from './runRecord.ts';
import { ReportInvalidError } from './ReportInvalidError.ts';
import { schemaProblems } from './schemaProblems.ts';
import { RUN_RECORD_LAYOUT } from './serialize.ts';
import { summarize } from './summarize.ts';
import { upgradedResult, type LooseResult } from './upgradeResult.ts';

let reportValidator: ValidateFunction | undefined;

/** reports/report.schema.json, compiled on first use: most commands never read a record back. */
function validateReport(): ValidateFunction {
  reportValidator ??= createAjv().compile(JSON.parse(readFileSync(new URL('../../reports/report.schema.json', import.meta.url), 'utf8')) as object);
  return reportValidator;
}

/**
 * Problems with a value that should be a run record; empty when it is one. The shape is
 * reports/report.schema.json's; on top of it the summary must agree with the results it counts.
 */
export function runRecordProblems(value: unknown): string[] {
  if (!isRecord(value)) return [`/: must be an object, found ${value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value}`];
  if ('cells' in value && 'totals' in value) return ['/: this is a run summary (summary.json), not the record of one cell'];
  // Another version or another kind of file: the rest would only be noise.
  if (value['schemaVersion'] !== 1) return [`/schemaVersion: must be 1, found ${JSON.stringify(value['schemaVersion'])}`];
  const validate = validateReport();
  if (!validate(value)) return schemaProblems(validate.errors ?? [], RUN_RECORD_LAYOUT);
  // Shape is right; now the counts: a hand-edited summary that disagrees with the results is caught.
  const record = value as unknown as RunRecord;
  const problems: string[] = [];
  for (const [k, n] of Object.entries(summarize(record.results))) {
    // A report written before --repeat has no flaky count, and could have no flaky result.
    const found = (record.summary as unknown as Record<string, number | undefined>)[k] ?? (k === 'flaky' ? 0 : undefined);
    if (found !== n) problems.push(`/summary/${k}: is ${String(found)}, but the results count ${n}`);
  }
  return problems;
}

/** Parses the text of a run record file; throws ReportInvalidError naming `file` when it is not one. */
export function parseRunRecord(text: string, file: string): RunRecord {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new ReportInvalidError(file, [`not JSON: ${(cause as Error).message}`], { cause });
  }
  const problems = runRecordProblems(value);
  if (problems.length > 0) throw new ReportInvalidError(file, problems);
  const record = value as RunRecord;
  // Results written before their type said what each verdict carries: upgraded here, once.
  record.results = (record.results as unknown as LooseResult[]).map(upgradedResult);
  // Reports written before --repeat count no flaky verdict: 0, so every reader sees every count.
  record.summary.flaky ??= 0;
  // Reports written before --only was repeatable hold one pattern.
  const only = record.options.only as string[] | string | undefined;
  if (typeof only === 'string') record.options.only = [only];
  return record;
}
