import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';
import { RENDERERS } from '#harness/render/index.ts';
import { sampleRecord } from '#harness/testing/sampleRecord.ts';
import { tempDirs } from '#harness/testing/tempDirs.ts';
import { dirSnapshot } from '#harness/testing/dirSnapshot.ts';
import { cellFolder, clearReports, stageReports, writeCellReports, writeSummary } from './reportFiles.ts';
import { summaryOf } from '#harness/results/index.ts';

const tmp = tempDirs('svc-report-files-');

test('a cell gets one file per renderer render/index.ts lists, each what its renderer makes', () => {
  const dir = tmp();
  const record = sampleRecord();
  const json = writeCellReports(dir, record);
  const cell = join(dir, cellFolder(record.target), record.model);
  expect(dirname(json)).toBe(cell);
  expect(readdirSync(cell).sort()).toEqual(Object.values(RENDERERS).map((r) => r.file).sort());
  for (const { file, render } of Object.values(RENDERERS)) expect(readFileSync(join(cell, file), 'utf8'), file).toBe(render(record));
});

test('only the reports named, when named', () => {
  const dir = tmp();
  const record = sampleRecord();
  writeCellReports(dir, record, ['markdown']);
  expect(readdirSync(join(dir, cellFolder(record.target), record.model))).toEqual(['report.md']);
});

test('the embedded emulator and a replay write to folders of stable names, a live endpoint to its host', () => {
  expect(cellFolder({ kind: 'emulator', baseUrl: 'http://127.0.0.1:41234' })).toBe('emulator');
  expect(cellFolder({ kind: 'fixtures', baseUrl: 'http://127.0.0.1:41235' })).toBe('replay');
  expect(cellFolder({ kind: 'live', baseUrl: 'https://api.example.com/v1' })).toBe('api.example.com_v1');
});

test("a previous run's reports are removed, and nothing else", () => {
  const dir = tmp();
  const record = sampleRecord();
  writeCellReports(dir, record);
  writeFileSync(join(dir, 'summary.md'), '# ✅ PASS');
  writeFileSync(join(dir, 'summary.json'), '{}');
  writeFileSync(join(dir, 'notes.txt'), 'mine');
  mkdirSync(join(dir, 'keep', 'me'), { recursive: true });
  writeFileSync(join(dir, 'keep', 'me', 'data.csv'), '1');
  clearReports(dir);
  expect(readdirSync(dir).sort()).toEqual(['keep', 'notes.txt']);
  expect(readdirSync(join(dir, 'keep', 'me'))).toEqual(['data.csv']);
});

describe('a run\'s reports are written beside the last ones and swapped in whole', () => {
  const lastRun = () => {
    const dir = tmp();
    const old = { ...sampleRecord(), model: 'svc-v4-pro' };
    writeSummary(dir, summaryOf([old], ['emulator/svc-v4-pro/report.json']), [old]);
    writeCellReports(dir, old);
    writeFileSync(join(dir, 'report.schema.json'), '{"mine": true}');
    return dir;
  };

  test('discarded (the run stopped before its reports were complete): the last ones are left byte for byte, nothing added', () => {
    const dir = lastRun();
    const before = dirSnapshot(dir);
    const staged = stageReports(dir);
    writeCellReports(staged.dir, sampleRecord(), ['markdown']);
    // Nothing of it shows until the swap.
    expect(dirSnapshot(dir)).toEqual({ ...before, ...Object.fromEntries(Object.entries(dirSnapshot(staged.dir)).map(([f, b]) => [relative(dir, join(staged.dir, f)), b])) });
    staged.discard();
    expect(dirSnapshot(dir)).toEqual(before);
  });

  test('committed: the new reports replace the last ones, whose cells this run did not make are gone; the user\'s files stay', () => {
    const dir = lastRun();
    const staged = stageReports(dir);
    const record = sampleRecord();
    writeCellReports(staged.dir, record);
    writeSummary(staged.dir, summaryOf([record], ['emulator/svc-v4-flash/report.json']), [record]);
    const made = dirSnapshot(staged.dir);
    staged.commit();
    expect(dirSnapshot(dir)).toEqual({ ...made, 'report.schema.json': Buffer.from('{"mine": true}').toString('base64') });
  });

  test('a folder left by a process that died is removed by the next run; a live one\'s is not', () => {
    const dir = lastRun();
    mkdirSync(join(dir, '.svc-conformance-next-999999999'));
    mkdirSync(join(dir, `.svc-conformance-next-${process.ppid}`));
    stageReports(dir).discard();
    expect(readdirSync(dir).filter((n) => n.startsWith('.'))).toEqual([`.svc-conformance-next-${process.ppid}`]);
  });
});
