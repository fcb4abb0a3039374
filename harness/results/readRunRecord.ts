import { readFile } from 'node:fs/promises';
import type { RunRecord } from './runRecord.ts';
import { parseRunRecord } from './parseRunRecord.ts';
import { ReportInvalidError } from './ReportInvalidError.ts';

/** Reads a run record written by writeRunRecord. Throws ReportInvalidError naming the file when it is not one. */
export async function readRunRecord(file: string): Promise<RunRecord> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    throw new ReportInvalidError(file, [`cannot be read (${code ?? (cause as Error).message})`], { cause });
  }
  return parseRunRecord(text, file);
}
