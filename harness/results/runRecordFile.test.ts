import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readRunRecord } from './readRunRecord.ts';
import { writeRunRecord } from './writeRunRecord.ts';
import { serializeRunRecord } from './serialize.ts';
import { sampleRecord } from '#harness/testing/sampleRecord.ts';
import { isReportInvalidError, type ReportInvalidError } from './ReportInvalidError.ts';
import { summaryOf } from './summaryOf.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'svc-results-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function failureOf(file: string): Promise<ReportInvalidError> {
  const error = await readRunRecord(file).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isReportInvalidError(error)) throw new Error(`expected a ReportInvalidError, got ${String(error)}`);
  return error;
}

describe('writeRunRecord / readRunRecord', () => {
  test('round trip: the folder is created, the file is the serialized record, reading gives it back', async () => {
    const file = join(dir, 'host', 'svc-v4-flash', 'report.json');
    await writeRunRecord(file, sampleRecord());
    expect(await readFile(file, 'utf8')).toBe(serializeRunRecord(sampleRecord()));
    expect(await readRunRecord(file)).toEqual(sampleRecord());
  });

  test('a missing file: the error names the file, exit code 2', async () => {
    const file = join(dir, 'nope.json');
    const e = await failureOf(file);
    expect(e.message).toBe(`${file}: not a svc-conformance run record:\n  cannot be read (ENOENT)`);
    expect(e.code).toBe('HARNESS_REPORT_INVALID');
    expect(e.exitCode).toBe(2);
  });

  test('not JSON', async () => {
    const file = join(dir, 'report.md');
    await writeFile(file, '# Conformance\n');
    expect((await failureOf(file)).message).toMatch(new RegExp(`^${file.replace(/[.\\]/g, '\\$&')}: not a svc-conformance run record:\n  not JSON: `));
  });

  test('JSON of another kind: package.json, a run summary, a newer schema version', async () => {
    const other = join(dir, 'package.json');
    await writeFile(other, JSON.stringify({ name: 'x', version: '1.0.0' }));
    expect((await failureOf(other)).problems).toEqual(['/schemaVersion: must be 1, found undefined']);

    const summary = join(dir, 'summary.json');
    await writeFile(summary, JSON.stringify(summaryOf([sampleRecord()], ['r.json'])));
    expect((await failureOf(summary)).problems[0]).toMatch(/run summary/);

    const newer = join(dir, 'newer.json');
    await writeFile(newer, JSON.stringify({ ...sampleRecord(), schemaVersion: 2 }));
    expect((await failureOf(newer)).problems).toEqual(['/schemaVersion: must be 1, found 2']);
  });

  test('a damaged record: every problem is listed with its place', async () => {
    const file = join(dir, 'damaged.json');
    const r = sampleRecord() as unknown as Record<string, unknown> & { results: Record<string, unknown>[] };
    delete r['summary'];
    r.results[2]!['verdict'] = 'maybe';
    r['interrupted'] = 'no';
    await writeFile(file, JSON.stringify(r));
    const e = await failureOf(file);
    expect(e.message.split('\n')[0]).toBe(`${file}: not a svc-conformance run record:`);
    expect(e.problems).toEqual([
      '/interrupted: must be a boolean, found "no"',
      '/: missing summary',
      '/results/2/verdict: must be one of "pass", "fail", "flaky", "skip", "unsupported", "error", found "maybe"',
    ]);
  });

  test('a summary that disagrees with the results is caught', async () => {
    const file = join(dir, 'edited.json');
    const r = sampleRecord();
    r.summary.mustFailures = 0;
    await writeFile(file, JSON.stringify(r));
    expect((await failureOf(file)).problems).toEqual(['/summary/mustFailures: is 0, but the results count 2']);
  });
});
