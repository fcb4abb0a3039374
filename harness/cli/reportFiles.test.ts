import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect, test } from 'vitest';
import { RENDERERS } from '#harness/render/index.ts';
import { sampleRecord } from '#harness/testing/sampleRecord.ts';
import { tempDirs } from '#harness/testing/tempDirs.ts';
import { hostSlug, writeCellReports } from './reportFiles.ts';

const tmp = tempDirs('svc-report-files-');

test('a cell gets one file per renderer render/index.ts lists, each what its renderer makes', () => {
  const dir = tmp();
  const record = sampleRecord();
  const json = writeCellReports(dir, record);
  const cell = join(dir, hostSlug(record.target.baseUrl), record.model);
  expect(dirname(json)).toBe(cell);
  expect(readdirSync(cell).sort()).toEqual(Object.values(RENDERERS).map((r) => r.file).sort());
  for (const { file, render } of Object.values(RENDERERS)) expect(readFileSync(join(cell, file), 'utf8'), file).toBe(render(record));
});

test('only the reports named, when named', () => {
  const dir = tmp();
  const record = sampleRecord();
  writeCellReports(dir, record, ['markdown']);
  expect(readdirSync(join(dir, hostSlug(record.target.baseUrl), record.model))).toEqual(['report.md']);
});
