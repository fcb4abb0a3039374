import { serializeRunRecord, type RunRecord } from '#harness/results/index.ts';

/** report.json: exactly the file writeRunRecord writes (reports/report.schema.json). */
export function renderJson(record: RunRecord): string {
  return serializeRunRecord(record);
}
