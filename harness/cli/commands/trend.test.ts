import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resultOf } from '#harness/testing/results.ts';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { CheckResult, Verdict } from '#harness/core/outcome.ts';
import { serializeRunRecord, type RunRecord } from '#harness/results/index.ts';
import { captureIO } from '#harness/testing/captureIO.ts';
import { withResults } from '#harness/testing/outcomeRecords.ts';
import { sampleRecord } from '#harness/testing/sampleRecord.ts';
import { tempDirs } from '#harness/testing/tempDirs.ts';
import { wellFormedXml } from '#harness/testing/wellFormedXml.ts';
import { main } from '../main.ts';

const dir = tempDirs('svc-trend-')();

/** The sample record started at `startedAt`, with some verdicts changed. */
function reportAt(startedAt: string, verdicts: Record<string, Verdict> = {}): RunRecord {
  const base = sampleRecord();
  const results = base.results.map((r): CheckResult => {
    const v = verdicts[r.checkId];
    if (v === undefined) return r;
    const { failures: _f, reason: _r, ...rest } = r;
    return resultOf({ ...rest, verdict: v, ...(v === 'fail' ? { failures: [{ message: 'failed' }] } : {}) });
  });
  return { ...withResults(base, results), startedAt, finishedAt: startedAt };
}

function write(name: string, record: RunRecord): string {
  const file = join(dir, name);
  writeFileSync(file, serializeRunRecord(record));
  return file;
}

describe('svc-conformance trend', () => {
  test('three reports given out of order: trend.html and trend.svg written, dated in order, the changed checks listed', async () => {
    const monday = write('mon.json', reportAt('2026-05-11T06:00:00.000Z'));
    const tuesday = write('tue.json', reportAt('2026-05-12T06:00:00.000Z', { 'request.temperature.rejects-out-of-range': 'pass', 'stream.framing.ends-with-done': 'pass' }));
    const wednesday = write('wed.json', reportAt('2026-05-13T06:00:00.000Z', { 'request.temperature.rejects-out-of-range': 'pass', 'stream.framing.ends-with-done': 'fail', 'lifecycle.alias.retires-on-time': 'pass', 'tools.tool-choice.required-forces-call': 'pass' }));
    const out = join(dir, 'trend');
    const io = captureIO();
    expect(await main(['trend', wednesday, monday, tuesday, '--out', out], io)).toBe(0);
    expect(existsSync(join(out, 'trend.html'))).toBe(true);
    const svg = readFileSync(join(out, 'trend.svg'), 'utf8');
    expect(wellFormedXml(svg)).toEqual([]);
    expect(svg.indexOf('>2026-05-11<')).toBeLessThan(svg.indexOf('>2026-05-12<'));
    expect(svg.indexOf('>2026-05-12<')).toBeLessThan(svg.indexOf('>2026-05-13<'));
    const html = readFileSync(join(out, 'trend.html'), 'utf8');
    const rows = html.split('<tr>').slice(2);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toContain('2026-05-11 06:00 UTC');
    expect(rows[0]).toContain('first report');
    expect(rows[1]).toContain('<code>request.temperature.rejects-out-of-range</code>: <span class="step"><span class="v fail">fail</span> → <span class="v pass">pass</span>');
    expect(rows[1]).toContain('<code>stream.framing.ends-with-done</code>');
    expect(rows[2]).toContain('<code>stream.framing.ends-with-done</code>: <span class="step"><span class="v pass">pass</span> → <span class="v fail">fail</span>');
    expect(rows[2]).toContain('<code>lifecycle.alias.retires-on-time</code>: <span class="step"><span class="v error">error</span> → <span class="v pass">pass</span>');
    expect(rows[2]).toContain('<code>tools.tool-choice.required-forces-call</code>: <span class="step"><span class="v skip">skip</span> → <span class="v pass">pass</span>');
    expect(rows[2]).not.toContain('request.temperature');
    expect(io.out.join('\n')).toContain('svc-v4-flash at emulator: 3 report(s); score 29/100 → 65/100 → ');
  });

  test('no file, or a file that is not a report: exit 2 naming it', async () => {
    expect(await main(['trend', '--out', join(dir, 'x')], captureIO())).toBe(2);
    const io = captureIO();
    expect(await main(['trend', join(dir, 'nope.json'), '--out', join(dir, 'x')], io)).toBe(2);
    expect(io.err.join('\n')).toContain('nope.json');
  });
});
