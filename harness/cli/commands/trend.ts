import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildRegistry } from '#harness/checks/index.ts';
import { UsageError } from '#harness/core/errors/index.ts';
import { renderTrendHtml, renderTrendSvg, trendOf } from '#harness/render/trend.ts';
import { OUTCOME_WORD, readRecords, scoreText } from '#harness/results/index.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { EXIT, parseFlags, type Command } from '../command.ts';
import { outputDir } from '../outputs.ts';
import { trendInfo } from './trendHelp.ts';

export const trend: Command = {
  ...trendInfo,
  async run(argv, io) {
    const { values, positionals } = parseFlags('trend', argv, { out: { type: 'string' }, spec: { type: 'string' } }, true);
    if (positionals.length === 0) throw new UsageError('trend: name the report.json files (or run --json bundles) to chart. Run `svc-conformance trend --help`.');
    const dir = outputDir('trend', 'out', values.out ?? join('reports', 'trend'));
    const records = (await Promise.all(positionals.map((f) => readRecords(f)))).flat();
    const { spec } = loadSpec(values.spec);
    const cells = trendOf(records, buildRegistry(spec).all());
    writeFileSync(join(dir, 'trend.html'), renderTrendHtml(cells));
    writeFileSync(join(dir, 'trend.svg'), renderTrendSvg(cells));
    for (const c of cells) {
      const last = c.points[c.points.length - 1]!;
      io.stdout(`${c.model} at ${c.target}: ${c.points.length} report(s); score ${c.points.map((p) => scoreText(p.score)).join(' → ')}; latest coverage ${last.coverage.percent ?? '–'}%, ${OUTCOME_WORD[last.outcome]}`);
    }
    io.stdout(`wrote ${join(dir, 'trend.html')} and ${join(dir, 'trend.svg')} (${records.length} report(s), ${cells.length} cell(s))`);
    return EXIT.ok;
  },
};
