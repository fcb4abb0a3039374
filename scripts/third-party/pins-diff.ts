// After a re-recording: which verdicts moved from their pins, each with the harness's reason, so
// that each can be established by hand (FINDINGS) before its pin is changed. Replays a recording as
// harness/cli/recordedThirdParty.test.ts does, with no server:
//   node --import tsx scripts/third-party/pins-diff.ts llama-server [litellm-openai ...]
// Prints one line per moved verdict (pinned -> replayed), and one per pin that still says "not recorded"
// (a pin written before its check's requests were recorded: each to be established by hand now),
// then the exit codes; exits 1 when anything moved or is still to be established.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from '#harness/cli/main.ts';
import type { CheckResult } from '#harness/core/outcome.ts';
import { captureIO } from '#harness/testing/captureIO.ts';
import { ALL_CLIENTS_FLAGS, pinnedVerdicts, recordedThirdParties, verdictsPinnable } from '#harness/testing/thirdParty/recorded.ts';

/** A skip's kind as its words start: inconclusive, not recorded, or another. */
const skipKindOf = (why: string): string => (why.startsWith('inconclusive') ? 'inconclusive' : why.startsWith('not recorded') ? 'not recorded' : 'other');
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const names = process.argv.slice(2);
const all = await recordedThirdParties();
const unknown = names.filter((n) => !all.some((r) => r.name === n));
if (names.length === 0 || unknown.length > 0) {
  console.error(`usage: pins-diff.ts NAME...; ${unknown.length ? `unknown: ${unknown.join(', ')}; ` : ''}known: ${all.map((r) => r.name).join(', ')}`);
  process.exit(2);
}
const dir = mkdtempSync(join(tmpdir(), 'svc-pins-diff-'));
let moved = 0;
try {
  for (const r of all.filter((x) => names.includes(x.name))) {
    const json = join(dir, `${r.name}.json`);
    const code = await main(['run', '--fixtures', join(ROOT, r.fixtures), '--fast', '--report-dir', join(dir, r.name), '--json', json, '--quiet', ...ALL_CLIENTS_FLAGS, ...r.args], captureIO());
    const results = (JSON.parse(readFileSync(json, 'utf8')) as { records: { results: CheckResult[] }[] }).records.flatMap((x) => x.results);
    const got = verdictsPinnable(r, results);
    const want = pinnedVerdicts(r);
    for (const id of [...new Set([...Object.keys(got), ...Object.keys(want)])].sort()) {
      const stale = r.verdicts[id]?.why.startsWith('not recorded') === true;
      const res = results.find((x) => x.checkId === id);
      // A skip is not the same skip when its pin says inconclusive and it no longer is (recordedThirdParty.test.ts holds that too).
      const pinnedKind = skipKindOf(r.verdicts[id]?.why ?? '');
      const nowKind = skipKindOf(res?.reason ?? '');
      const kindMoved = got[id] === 'skip' && want[id] === 'skip' && !stale && pinnedKind === 'inconclusive' && nowKind !== 'inconclusive';
      if (got[id] === want[id] && !stale && !kindMoved) continue;
      moved += 1;
      const why = res?.reason ?? res?.failures?.map((f) => f.message).join(' | ') ?? '';
      const change = got[id] !== want[id] ? `${want[id] ?? '(unpinned)'} -> ${got[id] ?? '(not pinnable)'}` : stale ? `${want[id]}, pinned as not recorded` : `skip (${skipKindOf(r.verdicts[id]?.why ?? '')}) -> skip (${skipKindOf(res?.reason ?? '')})`;
      console.log(`${r.name}\t${id}\t${change}\t[${res?.severity ?? '-'}] ${why}`);
    }
    console.log(`${r.name}\texit ${code} (pinned ${r.exitCode})`);
    if (code !== r.exitCode) moved += 1;
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exit(moved > 0 ? 1 : 0);
