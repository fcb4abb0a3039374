import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { serializeRunRecord } from '#harness/results/index.ts';
import { captureIO } from '#harness/testing/captureIO.ts';
import { cleanRecord } from '#harness/testing/outcomeRecords.ts';
import { sampleRecord } from '#harness/testing/sampleRecord.ts';
import { tempDirs } from '#harness/testing/tempDirs.ts';
import { wellFormedXml } from '#harness/testing/wellFormedXml.ts';
import { main } from '../main.ts';

const dir = { path: tempDirs('svc-badge-')() };

describe('svc-conformance badge', () => {
  test('a report.json: writes the SVG with its score, label and colour', async () => {
    const report = join(dir.path, 'report.json');
    writeFileSync(report, serializeRunRecord(sampleRecord()));
    const out = join(dir.path, 'out', 'badge.svg');
    const io = captureIO();
    expect(await main(['badge', report, '--label', 'svc', '--out', out], io)).toBe(0);
    const svg = readFileSync(out, 'utf8');
    expect(wellFormedXml(svg)).toEqual([]);
    expect(svg).toContain('<title>svc: 29/100 failing</title>');
    expect(svg).toContain('fill="#e05d44"');
    expect(io.out.join('\n')).toContain('svc 29/100 failing (1 cell, FAIL)');
  });

  test('a run bundle {records: [...]}: the lowest score of its cells', async () => {
    const bundle = join(dir.path, 'run.json');
    const clean = { ...cleanRecord(), model: 'svc-v4-pro' };
    writeFileSync(bundle, JSON.stringify({ records: [JSON.parse(serializeRunRecord(clean)), JSON.parse(serializeRunRecord(sampleRecord()))] }));
    const out = join(dir.path, 'bundle.svg');
    expect(await main(['badge', bundle, '--out', out], captureIO())).toBe(0);
    expect(readFileSync(out, 'utf8')).toContain('<title>conformance: 29/100 failing</title>');
    const alone = join(dir.path, 'clean.json');
    writeFileSync(alone, serializeRunRecord(clean));
    expect(await main(['badge', alone, '--out', out], captureIO())).toBe(0);
    expect(readFileSync(out, 'utf8')).toContain('fill="#4c1"');
  });

  test('no file, two files, or a file that is not a report: exit 2 naming it', async () => {
    expect(await main(['badge'], captureIO())).toBe(2);
    expect(await main(['badge', 'a.json', 'b.json'], captureIO())).toBe(2);
    const io = captureIO();
    expect(await main(['badge', join(dir.path, 'nope.json'), '--out', join(dir.path, 'x.svg')], io)).toBe(2);
    expect(io.err.join('\n')).toContain('nope.json');
  });
});
