import { FAULTS } from '#harness/emulator/index.ts';
import { main } from '#harness/cli/main.ts';
import { readFileSync } from 'node:fs';
const quiet = { stdout: () => undefined, stderr: () => undefined };
const out: string[] = [];
await Promise.all([0,1,2,3].map(async (w) => {
  for (let i = w; i < FAULTS.length; i += 4) {
    const f = FAULTS[i]!;
    const dir = `/tmp/walk/${f.id}`;
    const code = await main(['run', '--fault', f.id, '--quiet', '--report-dir', dir, '--json', `${dir}/all.json`], quiet);
    const all = JSON.parse(readFileSync(`${dir}/all.json`, 'utf8')) as { records: { results: { checkId: string; verdict: string; severity: string; model: string }[] }[] };
    const failing = all.records.flatMap((r) => r.results.filter((x) => x.verdict === 'fail' || x.verdict === 'error').map((x) => `${x.checkId}[${x.severity}${x.verdict === 'error' ? ',ERROR' : ''}]`));
    out.push(`${code} ${f.id}: ${[...new Set(failing)].slice(0, 6).join(' ')}`);
  }
}));
console.log(out.sort().join('\n'));
