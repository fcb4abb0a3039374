import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import type { RunRecord } from '#harness/results/index.ts';
import { captureIO } from '#harness/testing/captureIO.ts';
import { withMachineClockAhead } from '#harness/testing/machineClock.ts';
import { tempDirs } from '#harness/testing/tempDirs.ts';
import { ALL_CLIENTS_FLAGS, pinnedVerdicts, recordedThirdParties, verdictsPinnable, type RecordedThirdParty } from '#harness/testing/thirdParty/recorded.ts';
import { main } from './main.ts';

/**
 * Record once, replay on every push: a recording replayed the day after, a month after or a year
 * after it was made judges as it did that day. Every recording committed under fixtures/ is
 * replayed with the machine's clock moved ahead (Date faked in this whole process: the harness, the
 * replay server, the clients) and must give the verdicts of its pins (a recorded server's
 * *.pins.ts), or else those of its replay today (which fixtureSets.test.ts checks), the same exit
 * code and cost, judged at the recording's clock while the records are dated by the calendar.
 */
const SHIFTS_DAYS = [1, 30, 400];
const FIXTURES = fileURLToPath(new URL('../../fixtures/', import.meta.url));
const recordings = readdirSync(FIXTURES).filter((d) => existsSync(join(FIXTURES, d, 'manifest.json'))).sort();
const pinned = await recordedThirdParties();
const tmp = tempDirs('svc-clock-shift-');

interface Replayed {
  code: number;
  records: RunRecord[];
}

async function replay(dir: string, pins: RecordedThirdParty | undefined): Promise<Replayed> {
  const out = tmp();
  const json = join(out, 'all.json');
  const extra = pins ? [...ALL_CLIENTS_FLAGS, ...pins.args] : [];
  const code = await main(['run', '--fixtures', join(FIXTURES, dir), '--fast', '--quiet', '--report-dir', out, '--json', json, ...extra], captureIO());
  return { code, records: (JSON.parse(readFileSync(json, 'utf8')) as { records: RunRecord[] }).records };
}

/** Every verdict of a replay, with why a skip is one and the causes of a failure, and each cell's cost. */
function verdictsOf(run: Replayed): Record<string, string> {
  const out: Record<string, string> = {};
  for (const record of run.records) {
    out[`${record.model} cost`] = record.usage.costUsd;
    for (const r of record.results) {
      const causes = (r.failures ?? []).map((f) => f.key ?? f.message).sort();
      out[`${r.model} ${r.checkId}`] = [r.verdict, r.skipKind, causes.join('; ')].filter(Boolean).join(' ');
    }
  }
  return out;
}

test('every committed recording is replayed here', () => {
  expect(recordings).toEqual(expect.arrayContaining(['emulator-after-retirement', 'emulator-before-retirement', 'llama-server', 'litellm-deepseek', 'litellm-openai', 'production-captures']));
  for (const p of pinned) expect(recordings, p.name).toContain(p.fixtures.replace(/^fixtures\//, ''));
});

describe.each(recordings)('fixtures/%s', (dir) => {
  const pins = pinned.find((p) => p.fixtures === `fixtures/${dir}`);
  const manifest = JSON.parse(readFileSync(join(FIXTURES, dir, 'manifest.json'), 'utf8')) as { clock: string };
  let today: Replayed | undefined;
  beforeAll(async () => {
    // A pinned recording is compared with its pins; another with its replay today.
    if (!pins) today = await replay(dir, undefined);
  }, 120_000);

  test.each(SHIFTS_DAYS)('with the machine clock %i days ahead: the verdicts it gives today', async (days) => {
    const before = Date.now();
    const run = await withMachineClockAhead(days, () => replay(dir, pins));
    // The shift took: the records are dated by the calendar, which moved...
    for (const r of run.records) expect(Date.parse(r.startedAt) - before).toBeGreaterThanOrEqual(days * 86_400_000);
    // ...while every answer is judged at the recording's clock.
    for (const r of run.records) expect(r.referenceTime).toEqual({ source: 'fixture', value: manifest.clock });
    if (pins) {
      expect(run.code).toBe(pins.exitCode);
      expect(verdictsPinnable(pins, run.records.flatMap((r) => r.results))).toEqual(pinnedVerdicts(pins));
    } else {
      expect(run.code).toBe(today!.code);
      expect(verdictsOf(run)).toEqual(verdictsOf(today!));
    }
  }, 120_000);
});

test("a replay's tokens are priced as of when the recording was made, not the replay day", async () => {
  // The same recording, made (as its manifest says) during svc-v4-pro's promotion and after it.
  const costWhenRecordedAt = async (recordedAt: string): Promise<string> => {
    const copy = join(tmp(), 'recording');
    cpSync(join(FIXTURES, 'emulator-after-retirement'), copy, { recursive: true });
    const manifest = JSON.parse(readFileSync(join(copy, 'manifest.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(copy, 'manifest.json'), JSON.stringify({ ...manifest, recordedAt }));
    const out = tmp();
    expect(await main(['run', '--fixtures', copy, '--fast', '--quiet', '--model', 'svc-v4-pro', '--only', 'usage.*', '--report-dir', out, '--json', join(out, 'all.json')], captureIO())).toBe(0);
    return (JSON.parse(readFileSync(join(out, 'all.json'), 'utf8')) as { records: RunRecord[] }).records[0]!.usage.costUsd;
  };
  const promo = await costWhenRecordedAt('2026-05-15T00:00:00.000Z');
  const regular = await costWhenRecordedAt('2026-06-15T00:00:00.000Z');
  expect(Number(promo)).toBeGreaterThan(0);
  expect(Number(promo)).toBeLessThan(Number(regular) / 3);
}, 60_000);
