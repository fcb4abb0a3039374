import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect, test } from 'vitest';
import { RENDERERS } from '#harness/render/index.ts';
import { sampleRecord } from '#harness/testing/sampleRecord.ts';
import { tempDirs } from '#harness/testing/tempDirs.ts';
import { cellFolder, clearReports, writeCellReports } from './reportFiles.ts';

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
