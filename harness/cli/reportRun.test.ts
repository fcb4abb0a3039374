import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { RunRecord, RunSummary } from '#harness/results/index.ts';
import { captureIO } from '#harness/testing/captureIO.ts';
import { answerTimesNote } from '#harness/render/view.ts';
import { ADAPTIVE } from '#harness/transport/index.ts';
import { tempDirs } from '#harness/testing/tempDirs.ts';
import { main } from './main.ts';

const tmp = tempDirs('svc-report-run-');

/** Two models on one target, so the target's figures show once though two cells carry them. */
async function run(...flags: string[]) {
  const dir = tmp();
  const io = captureIO();
  const code = await main(['run', '--quiet', '--model', 'svc-v4-flash', '--model', 'svc-v4-pro', '--only', 'schema.', '--report-dir', dir, ...flags], io);
  expect(code, io.text()).toBe(0);
  const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as RunSummary;
  const records = summary.cells.map((c) => JSON.parse(readFileSync(join(dir, c.report), 'utf8')) as RunRecord);
  return { io, summary, records, lines: io.err.filter((l) => / requests?[ ,]/.test(l) && l.includes('concurrency reached')) };
}

describe('the requests a run sent and the concurrency it reached', () => {
  test('every cell of the target carries its figures, summary.json too; the closing lines say them once per target, even with --quiet', async () => {
    const { records, summary, lines } = await run('--concurrency', '2');
    const traffic = records[0]!.traffic!;
    expect(traffic.requests).toBeGreaterThan(0);
    expect(traffic.concurrency).toMatchObject({ initial: 2, max: 2, adaptive: false, final: 2 });
    expect(records.map((r) => r.traffic)).toEqual([traffic, traffic]);
    expect(summary.cells.map((c) => c.traffic)).toEqual([traffic, traffic]);
    const retries = traffic.retries === 0 ? '' : ` (${traffic.retries} ${traffic.retries === 1 ? 'retry' : 'retries'})`;
    // How long answers took (information): every answer of the emulator here is served.
    expect(traffic.answerTimes?.served?.count).toBeGreaterThan(0);
    // The embedded emulator is named as its report folder is, not by its port of the day.
    expect(records[0]!.target.kind).toBe('emulator');
    expect(lines).toEqual([`svc-conformance: emulator: ${traffic.requests} requests${retries}, concurrency reached ${traffic.concurrency.reached} (fixed at 2); ${answerTimesNote(traffic.answerTimes!)}`]);
  }, 60_000);

  test('without --concurrency the limit adapts, and the line says from where and up to what', async () => {
    const { records, lines } = await run();
    expect(records[0]!.traffic!.concurrency).toMatchObject({ initial: ADAPTIVE.initial, max: ADAPTIVE.max, adaptive: true });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^svc-conformance: emulator: \\d+ requests( \\(\\d+ retr(y|ies)\\))?, concurrency reached \\d+ \\(adaptive, started at ${ADAPTIVE.initial}, cap ${ADAPTIVE.max}, ended at \\d+; came down \\d+ times?(; .+)?\\)(; served in .+)?$`));
  }, 60_000);

  test('--max-in-flight below the adaptive cap is the cap the limit climbs to', async () => {
    const { records, lines } = await run('--max-in-flight', '3');
    expect(records[0]!.traffic!.concurrency).toMatchObject({ initial: 3, max: 3, adaptive: false });
    expect(lines[0]).toMatch(/concurrency reached \d \(fixed at 3\); served in /);
  }, 60_000);
});
