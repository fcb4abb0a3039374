import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import type { RunRecord } from '#harness/results/index.ts';
import { captureIO } from '#harness/testing/captureIO.ts';
import { tempDirs } from '#harness/testing/tempDirs.ts';
import { main } from './main.ts';

/**
 * Known failures (svc-conformance.known.yaml) as the gate reads them: against the embedded emulator
 * with one fault on (usage-total-wrong: total_tokens one more than the parts), one check fails at must.
 */
const tmp = tempDirs('svc-known-');
const NOW = '2026-06-01T00:00:00Z';
const CHECK = 'usage.total.equals-prompt-plus-completion';
const base = ['--model', 'svc-v4-flash', '--now', NOW, '--quiet'];

/** A run (the embedded emulator at NOW, unless `head` says otherwise) on the calendar's `today` (the machine's unless given). */
async function run(args: string[], { today, head = base }: { today?: string; head?: readonly string[] } = {}): Promise<{ code: number; err: string; record: RunRecord; summary: { outcome: string; reason: string }; md: string }> {
  const dir = tmp();
  const io = captureIO();
  if (today !== undefined) io.calendar = () => new Date(today);
  const code = await main(['run', ...head, '--report-dir', dir, '--json', join(dir, 'all.json'), ...args], io);
  const all = JSON.parse(readFileSync(join(dir, 'all.json'), 'utf8')) as { summary: { outcome: string; reason: string }; records: RunRecord[] };
  return { code, err: io.err.join('\n'), record: all.records[0]!, summary: all.summary, md: readFileSync(join(dir, readdirSync(dir, { recursive: true }).map(String).find((f) => f.endsWith('report.md'))!), 'utf8') };
}

function knownFile(body: string): string {
  const file = join(tmp(), 'known.yaml');
  writeFileSync(file, body);
  return file;
}

const entry = (extra = '') => `known:\n  - check: ${CHECK}\n    reason: the gateway counts its own tokens\n${extra}`;

describe('known failures', () => {
  test('a known failure stays green, shown and counted as known', async () => {
    const { code, record, summary, md } = await run(['--fault', 'usage-total-wrong', '--only', 'usage.total.*', '--known', knownFile(entry())]);
    expect(code).toBe(0);
    expect(summary.outcome).toBe('pass');
    expect(summary.reason).toMatch(/1 known failure/);
    expect(record.results.find((r) => r.checkId === CHECK)?.verdict).toBe('fail');
    expect(md).toContain('(does not fail the run: known, the gateway counts its own tokens');
  }, 60_000);

  test('the same check failing for another cause than the one it is known for fails the run', async () => {
    const { code, summary } = await run(['--fault', 'usage-total-wrong', '--only', 'usage.total.*', '--known', knownFile(entry("    causes: ['usage.total.equals-prompt-plus-completion at:/usage/prompt_tokens']\n"))]);
    expect(code).toBe(1);
    expect(summary.reason).toMatch(/1 check fails the run/);
  }, 60_000);

  test('a fixed check makes its entry stale: reported at the top, and --strict-known fails the run', async () => {
    const file = knownFile(entry());
    const loose = await run(['--only', 'usage.total.*', '--known', file]);
    expect(loose.code).toBe(0);
    expect(loose.md).toMatch(/Stale known failures: 1 entry of .* cover checks that pass now/);
    expect(loose.err).toMatch(/stale known failures, the checks pass now: remove usage\.total\.equals-prompt-plus-completion \(.*known\.yaml:2\)/);
    const strict = await run(['--only', 'usage.total.*', '--known', file, '--strict-known']);
    expect(strict.code).toBe(1);
    expect(strict.summary.reason).toMatch(/1 known-failure entry is stale .* --strict-known fails the run on them/);
  }, 60_000);

  test('an entry is good through its until date (UTC), judged on the day the run happens, not on the endpoint\'s clock (--now)', async () => {
    const known = knownFile(entry('    until: 2026-12-31\n'));
    const args = ['--fault', 'usage-total-wrong', '--only', 'usage.total.*', '--known', known];
    const lastDay = await run(args, { today: '2026-12-31T23:59:59Z' });
    expect(lastDay.code).toBe(0);
    expect(lastDay.record.startedAt).toBe('2026-12-31T23:59:59.000Z');
    const dayAfter = await run(args, { today: '2027-01-01T00:00:01Z' });
    expect(dayAfter.code).toBe(1);
    expect(dayAfter.record.results.find((r) => r.checkId === CHECK)?.verdict).toBe('fail');
    expect(dayAfter.summary.reason).toMatch(/1 check fails the run/);
    expect(dayAfter.md).toMatch(/known until 2026-12-31, which has passed/);
  }, 60_000);

  test('in replay-based CI too: a recording made before an entry\'s until is judged at its own clock, and the entry expires on the calendar', async () => {
    // llama-server has no beta base (fixtures/llama-server/FINDINGS.md): a must failure, as recorded (FINDINGS).
    const check = 'endpoint.chat-completions-on-beta.served';
    const known = knownFile(`known:\n  - check: ${check}\n    reason: no beta base yet\n    until: 2026-11-30\n`);
    const replay = ['--fixtures', fileURLToPath(new URL('../../fixtures/llama-server', import.meta.url)), '--fast', '--model-map', 'svc-v4-flash=tiny-chatml', '--only', check, '--known', known];
    // Without --now: the endpoint's clock is the recording's.
    const replayed = (today: string) => run(replay, { today, head: ['--quiet'] });
    const before = await replayed('2026-11-30T12:00:00Z');
    expect(before.code).toBe(0);
    expect(before.record.referenceTime.source).toBe('fixture');
    const after = await replayed('2026-12-01T00:00:00Z');
    expect(after.code).toBe(1);
    expect(after.record.referenceTime).toEqual(before.record.referenceTime);
    expect(after.record.results.find((r) => r.checkId === check)?.verdict).toBe('fail');
  }, 60_000);

  test('an entry naming no check is an input error naming the file and line, exit 2', async () => {
    const file = knownFile(`known:\n  - check: ${CHECK}\n    reason: fine\n  - check: usage.no-such-check\n    reason: typo\n`);
    const io = captureIO();
    expect(await main(['run', ...base, '--report-dir', tmp(), '--known', file], io)).toBe(2);
    expect(io.err.join('\n')).toMatch(new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:4: \`usage\\.no-such-check\` names no check of this run`));
  });

  test('init-known round-trips: a run\'s failures written as entries, then the same run passes', async () => {
    const first = tmp();
    const io = captureIO();
    expect(await main(['run', ...base, '--fault', 'usage-total-wrong', '--only', 'usage.total.*', '--report-dir', first, '--json', join(first, 'all.json')], io)).toBe(1);
    const file = join(tmp(), 'svc-conformance.known.yaml');
    const init = captureIO();
    expect(await main(['init-known', join(first, 'all.json'), '--out', file], init)).toBe(0);
    expect(init.out.join('\n')).toMatch(/wrote 1 entry/);
    const written = readFileSync(file, 'utf8');
    expect(written).toContain(`check: ${CHECK}`);
    expect(written).toContain('TODO');
    const again = await run(['--fault', 'usage-total-wrong', '--only', 'usage.total.*', '--known', file]);
    expect(again.code).toBe(0);
  }, 60_000);
});

describe('known failures named by the config file', () => {
  test('known: FILE and strict_known: in svc-conformance.yaml act as --known and --strict-known', async () => {
    const file = knownFile(entry());
    const config = join(tmp(), 'svc-conformance.yaml');
    writeFileSync(config, `known: ${file}\nstrict_known: true\n`);
    // The check passes on the clean emulator: the entry is stale, and strict_known fails the run.
    const { code, summary } = await run(['--only', 'usage.total.*', '--config', config]);
    expect(code).toBe(1);
    expect(summary.reason).toMatch(/stale/);
  }, 60_000);
});
