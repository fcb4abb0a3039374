import { writeFileSync } from 'node:fs';
import { UsageError } from '#harness/core/errors/index.ts';
import { badgeContentOf, renderBadgeSvg } from '#harness/render/badge.ts';
import { OUTCOME_WORD, readRecords } from '#harness/results/index.ts';
import { EXIT, parseFlags, type Command } from '../command.ts';
import { outputFile } from '../outputs.ts';
import { badgeInfo } from './badgeHelp.ts';

export const badge: Command = {
  ...badgeInfo,
  async run(argv, io) {
    const { values, positionals } = parseFlags('badge', argv, { label: { type: 'string' }, out: { type: 'string' } }, true);
    if (positionals.length !== 1) throw new UsageError('badge: name one file, a report.json or a run\'s --json bundle. Run `svc-conformance badge --help`.');
    const out = outputFile('badge', 'out', values.out ?? 'badge.svg');
    const records = await readRecords(positionals[0]!);
    if (records.length === 0) throw new UsageError(`badge: ${positionals[0]} holds no cell: there is nothing to draw a badge of.`);
    const content = badgeContentOf(records, values.label);
    writeFileSync(out, renderBadgeSvg(content));
    io.stdout(`wrote ${out}: ${content.label} ${content.message} (${records.length} cell${records.length === 1 ? '' : 's'}, ${OUTCOME_WORD[content.outcome]})`);
    return EXIT.ok;
  },
};
