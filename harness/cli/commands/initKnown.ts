import { existsSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from '#harness/core/errors/index.ts';
import { causesFailedFor, readRecords, standingOf, targetKey } from '#harness/results/index.ts';
import { yaml } from '#harness/spec/yaml.ts';
import { KNOWN_FILE } from '../knownFile.ts';
import { EXIT, parseFlags, type Command } from '../command.ts';
import { initKnownInfo } from './initKnownHelp.ts';

export const initKnown: Command = {
  ...initKnownInfo,
  async run(argv, io) {
    const { values, positionals } = parseFlags('init-known', argv, { out: { type: 'string' }, force: { type: 'boolean' } }, true);
    if (positionals.length === 0) throw new UsageError('init-known: name the report(s) to read: a report.json, or a run\'s --json file.');
    const out = values.out ?? KNOWN_FILE;
    if (existsSync(out) && values.force !== true) throw new UsageError(`init-known: ${out} exists; --force replaces it, or --out names another file.`);
    const known = [];
    for (const file of positionals) {
      for (const record of await readRecords(resolve(file))) {
        for (const r of record.results) {
          if (standingOf(r, record.options).counts !== 'gates') continue;
          const target = targetKey(record.target);
          known.push({
            check: r.checkId,
            model: r.model,
            ...(record.target.kind === 'live' ? { base_url: target } : {}),
            reason: `TODO: why this is known (${r.verdict}: ${(r.failures?.[0]?.message ?? r.reason ?? '').split('\n')[0]!.slice(0, 200)})`,
            causes: causesFailedFor(r),
          });
        }
      }
    }
    const head = `# Known failures (svc-conformance init-known from ${positionals.join(', ')}). Replace each TODO with\n# the reason; add until: YYYY-MM-DD to make an entry expire, link: to point at a tracker.\n`;
    writeFileSync(out, `${head}${yaml().stringify({ known }, { lineWidth: 0 })}`);
    io.stdout(`init-known: wrote ${known.length} ${known.length === 1 ? 'entry' : 'entries'} to ${out}${known.length === 0 ? ' (no failure fails the run in these reports)' : ''}`);
    return EXIT.ok;
  },
};
