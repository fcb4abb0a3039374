import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { RunRecord } from './runRecord.ts';
import { serializeRunRecord } from './serialize.ts';

/**
 * Writes a run record as serializeRunRecord lays it out, creating the folder. The file is written
 * beside its final name and renamed into place, so a reader (another shard's merge) never sees
 * half a record.
 */
export async function writeRunRecord(file: string, record: RunRecord): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const partial = `${file}.${process.pid}.partial`;
  await writeFile(partial, serializeRunRecord(record), 'utf8');
  await rename(partial, file);
}
