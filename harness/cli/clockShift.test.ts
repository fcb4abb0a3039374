import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
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

/**
 * Every replay is made once, when the first test asks, and each test judges its own. Date is faked
 * for the whole process (machineClock.ts), so two clocks never overlap: the pinned recordings are
 * replayed at once under each shift in turn (a replay mostly waits: a recorded 429 or 5xx is waited
 * out as it would be live; only verdicts and the exit code are compared with pins), then each other
 * recording today and under each shift, one replay at a time. A replay that throws fails its own
 * test only.
 *
 * One at a time, because those are compared with today's replay cost for cost: a check ended by an
 * answer that was not recorded (runner/execute.ts) keeps the tokens of an answer asked alongside
 * only if it came back first, so a cell's cost can differ between two replays
 * (fixtures/production-captures, svc-reasoner: rule.legacy.reasoner.reasoning-content-in-messages
 * judges 1 exchange or 2), and more often when replays run side by side.
 */
interface Shifted {
  /** The machine's clock just before the replay's shift. */
  before: number;
  run: Promise<Replayed>;
}
/** A test may wait for every replay: with room for a loaded machine. */
const REPLAYS_TIMEOUT_MS = 300_000;
const shifted = new Map<string, Shifted>();
const today = new Map<string, Promise<Replayed>>();
const at = (dir: string, days: number) => `${dir} +${days}d`;
let replayed: Promise<void> | undefined;

function replayAll(): Promise<void> {
  replayed ??= (async () => {
    for (const days of SHIFTS_DAYS) {
      const before = Date.now();
      const these = pinned.filter((p) => shiftsOf(dirOf(p)).includes(days));
      await withMachineClockAhead(days, async () => {
        const runs = these.map((p) => replay(dirOf(p), p));
        these.forEach((p, i) => shifted.set(at(dirOf(p), days), { before, run: runs[i]! }));
        await Promise.allSettled(runs);
      });
    }
    for (const dir of unpinned) {
      const run = replay(dir, undefined);
      today.set(dir, run);
      await run.catch(() => undefined);
      for (const days of SHIFTS_DAYS) {
        const before = Date.now();
        const run = withMachineClockAhead(days, () => replay(dir, undefined));
        shifted.set(at(dir, days), { before, run });
        await run.catch(() => undefined);
      }
    }
  })();
  return replayed;
}

const dirOf = (p: RecordedThirdParty) => p.fixtures.replace(/^fixtures\//, '');
const pinsOf = (dir: string) => pinned.find((p) => dirOf(p) === dir);
const unpinned = recordings.filter((dir) => pinsOf(dir) === undefined);
/**
 * The shifts a recording is replayed under. A pinned recording (a real server's, a dozen of them)
 * gets one, in turn (the first the day after, the next a month after, then a year after, ...), so
 * that every shift is taken by several servers and every server by one, at a third of the replays
 * every shift of every recording cost (npm test stays under 5 minutes); the others, compared with
 * their replay today, get every shift.
 */
const shiftsOf = (dir: string): number[] => {
  const i = pinned.findIndex((p) => dirOf(p) === dir);
  return i < 0 ? SHIFTS_DAYS : [SHIFTS_DAYS[i % SHIFTS_DAYS.length]!];
};

test('every committed recording is replayed here', () => {
  expect(recordings).toEqual(expect.arrayContaining(['emulator-after-retirement', 'emulator-before-retirement', 'llama-server', 'litellm-deepseek', 'litellm-openai', 'production-captures']));
  for (const p of pinned) expect(recordings, p.name).toContain(p.fixtures.replace(/^fixtures\//, ''));
  // Every shift is taken by some real server's recording, and every recording by some shift.
  for (const days of SHIFTS_DAYS) expect(pinned.some((p) => shiftsOf(dirOf(p)).includes(days)), `${days} days`).toBe(true);
  for (const dir of recordings) expect(shiftsOf(dir).length, dir).toBeGreaterThan(0);
});

describe.each(recordings)('fixtures/%s', (dir) => {
  const pins = pinsOf(dir);
  const manifest = JSON.parse(readFileSync(join(FIXTURES, dir, 'manifest.json'), 'utf8')) as { clock: string };

  test.each(shiftsOf(dir))('with the machine clock %i days ahead: the verdicts it gives today', async (days) => {
    await replayAll();
    const { before, run: replaying } = shifted.get(at(dir, days))!;
    const run = await replaying;
    expect(run.records.length).toBeGreaterThan(0);
    // The shift took: the records are dated by the calendar, which moved...
    for (const r of run.records) expect(Date.parse(r.startedAt) - before).toBeGreaterThanOrEqual(days * 86_400_000);
    // ...while every answer is judged at the recording's clock.
    for (const r of run.records) expect(r.referenceTime).toEqual({ source: 'fixture', value: manifest.clock });
    // A pinned recording is compared with its pins.
    if (pins) {
      expect(run.code).toBe(pins.exitCode);
      expect(verdictsPinnable(pins, run.records.flatMap((r) => r.results))).toEqual(pinnedVerdicts(pins));
    } else {
      // Not pinned: compared with its replay today.
      const replayedToday = await today.get(dir)!;
      expect(run.code).toBe(replayedToday.code);
      expect(verdictsOf(run)).toEqual(verdictsOf(replayedToday));
    }
  }, REPLAYS_TIMEOUT_MS);
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
  const [promo, regular] = await Promise.all([costWhenRecordedAt('2026-05-15T00:00:00.000Z'), costWhenRecordedAt('2026-06-15T00:00:00.000Z')]);
  expect(Number(promo)).toBeGreaterThan(0);
  expect(Number(promo)).toBeLessThan(Number(regular) / 3);
}, 60_000);
