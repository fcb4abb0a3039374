import { readFile } from 'node:fs/promises';
import { ReportInvalidError } from './ReportInvalidError.ts';
import { parseRunRecord } from './parseRunRecord.ts';
import type { RunRecord } from './runRecord.ts';

/**
 * The records of a file: one report.json, or the bundle `run --json FILE` writes
 * (`{ summary, records: [...] }`). Anything else is a ReportInvalidError naming the file.
 */
export async function readRecords(file: string): Promise<RunRecord[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new ReportInvalidError(file, [`cannot read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`]);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return [parseRunRecord(text, file)];
  }
  if (typeof value === 'object' && value !== null && Array.isArray((value as { records?: unknown }).records)) {
    return (value as { records: unknown[] }).records.map((r, i) => parseRunRecord(JSON.stringify(r), `${file} (records[${i}])`));
  }
  return [parseRunRecord(text, file)];
}
