import { addUsd, type RunRecord, type RunSummary } from '#harness/results/index.ts';
import { mdCell, mdCode, mdText } from './escape.ts';
import { costNotes, outcomeHeadline, plural, targetLabel, timingNote, TRAFFIC_SCOPE, trafficByTarget, trafficNote } from './view.ts';
import { causesSection } from './markdown.ts';
import { loadLine } from './loadView.ts';

function row(cells: readonly string[]): string {
  return `| ${cells.map(mdCell).join(' | ')} |`;
}

/**
 * summary.md: one row per cell (base URL x model) of the run, with its verdict counts, failures by
 * severity, tokens, cost and a link to its report, then the totals and the exit code, each
 * target's requests and concurrency, and a line per cell's load phase (`--load N`). `records`
 * add what the summary does not carry (spec revision, interruption); a cell without its record is
 * still shown.
 */
export function renderMarkdownSummary(summary: RunSummary, records: readonly RunRecord[]): string {
  const recordOf = (baseUrl: string, model: string) => records.find((r) => r.target.baseUrl === baseUrl && r.model === model);
  const t = summary.totals;
  const out: string[] = [];
  out.push(`# ${outcomeHeadline(summary.outcome)}: svc-conformance, ${plural(summary.cells.length, 'cell')}`, '');
  out.push(`**${mdText(summary.reason)}.**`, '');
  out.push(`${mdText(summary.startedAt)} → ${mdText(summary.finishedAt)} · exit code ${summary.exitCode}`, '');
  out.push(
    `**${plural(t.mustFailures, 'must failure')}** · ${plural(t.shouldFailures, 'should failure')} · ${plural(t.advisoryFailures, 'advisory failure')} · ${plural(t.error, 'error')}${t.flaky > 0 ? ` · ${t.flaky} flaky` : ''} · ${t.pass} passed · ${t.skip} skipped · ${t.unsupported} unsupported (${plural(t.total, 'check')})`,
    '',
  );
  const revisions = [...new Set(records.map((r) => r.spec.revision))];
  if (revisions.length > 0) out.push(`Spec revision ${revisions.map(mdCode).join(', ')}.`, '');
  const interrupted = records.filter((r) => r.interrupted);
  if (interrupted.length > 0) out.push('> [!WARNING]', `> Interrupted before every check ran: ${interrupted.map((r) => `${mdCode(r.model)} at ${mdCode(targetLabel(r.target))}`).join(', ')}.`, '');

  // Causes across every cell first: one defect seen by many checks and models is one line.
  out.push(...causesSection({ results: records.flatMap((r) => r.results), ...(summary.causes ? { causes: summary.causes } : {}) }));
  out.push(row(['Target', 'Model', 'outcome', 'score', 'coverage', 'must', 'should', 'advisory', 'flaky', 'error', 'pass', 'skip', 'unsupported', 'total', 'tokens', 'cost (USD)', 'report']));
  out.push('|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|');
  for (const c of summary.cells) {
    const s = c.summary;
    const note = recordOf(c.baseUrl, c.model)?.interrupted ? ' (interrupted)' : '';
    const record = recordOf(c.baseUrl, c.model);
    out.push(
      row([
        mdCode(record ? targetLabel(record.target) : c.baseUrl),
        `${mdCode(c.model)}${note}`,
        outcomeHeadline(c.outcome),
        recordOf(c.baseUrl, c.model)?.score === undefined ? '–' : `${recordOf(c.baseUrl, c.model)!.score}`,
        recordOf(c.baseUrl, c.model)?.coverage === undefined ? '–' : `${recordOf(c.baseUrl, c.model)!.coverage!.percent}%`,
        ...[s.mustFailures, s.shouldFailures, s.advisoryFailures, s.flaky, s.error, s.pass, s.skip, s.unsupported, s.total].map(String),
        String(c.usage.promptTokens + c.usage.completionTokens),
        mdText(c.usage.costUsd),
        // The cell's report.md beside its report.json, relative to this summary; a link target in
        // angle brackets may hold spaces, and < and > cannot occur in it escaped this way.
        `[report](<${c.report.replace(/report\.json$/, 'report.md').replace(/[<>\n\r]/g, encodeURIComponent)}>)`,
      ]),
    );
  }
  const tokens = summary.cells.reduce((n, c) => n + c.usage.promptTokens + c.usage.completionTokens, 0);
  const cost = addUsd('0', ...summary.cells.map((c) => c.usage.costUsd));
  out.push(
    row([
      '**all**',
      '',
      `**${outcomeHeadline(summary.outcome)}**`,
      '',
      '',
      ...[t.mustFailures, t.shouldFailures, t.advisoryFailures, t.flaky, t.error, t.pass, t.skip, t.unsupported, t.total].map((n) => `**${n}**`),
      `**${tokens}**`,
      `**${cost}**`,
      '',
    ]),
    '',
  );
  for (const note of costNotes(summary)) out.push(mdText(note), '');
  if (summary.timings) out.push(`Time: ${mdText(timingNote(summary.timings))}`, '');
  // A line per target, not a column per cell: the figures are the target's, the same in each of its cells.
  for (const t of trafficByTarget(records)) out.push(`Requests (${TRAFFIC_SCOPE}) at ${mdCode(t.label)}: ${mdText(trafficNote(t.traffic))}`, '');
  // The load phase of each cell that had one: figures, not verdicts (its report has the steps).
  const loaded = summary.cells.flatMap((c) => {
    const load = recordOf(c.baseUrl, c.model)?.load;
    return load ? [{ c, load }] : [];
  });
  for (const { c, load } of loaded) out.push(`Load (information, not a verdict) on ${mdCode(c.model)} at ${mdCode(targetLabel(recordOf(c.baseUrl, c.model)!.target))}: ${mdText(loadLine(load))}.`, '');
  out.push('Errors (checks that could not be judged) count as failures of their severity; should failures fail the run only with `--strict`; flaky checks (passed and failed over `--repeat N`) count as failures of their severity unless the run says `--allow-flaky`; with `--baseline`, only a regression fails the run. A run that was interrupted, or in which no must-check was judged, is never a PASS.');
  return `${out.join('\n')}\n`;
}
