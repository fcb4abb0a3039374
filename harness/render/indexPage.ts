import { pageHead } from './htmlPage.ts';
import { causesOf, OUTCOME_WORD, type RunRecord, type RunSummary } from '#harness/results/index.ts';
import { escapeHtml as h } from './escape.ts';
import { loadChart, LOAD_CHART_CSS, type LoadSeries } from './loadChart.ts';
import { cellName, judgingNote, judgingOfRecord, judgingReasonNote, plural, targetLabel, TRAFFIC_SCOPE, trafficByTarget, trafficNote } from './view.ts';

const CSS = `
:root{--pass:#1a7f37;--fail:#cf222e;--other:#9a6700;--line:#d0d7de;--muted:#57606a;color-scheme:light dark}
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,sans-serif;margin:2rem auto;max-width:80rem;padding:0 1rem}
h1{font-size:1.5rem;margin:.2rem 0}table{border-collapse:collapse;width:100%;margin:1rem 0}
th,td{border-bottom:1px solid var(--line);padding:.35rem .6rem;text-align:left;vertical-align:top}
th{font-weight:600}td.n{text-align:right;font-variant-numeric:tabular-nums}
.badge{display:inline-block;min-width:5.5rem;text-align:center;border-radius:1rem;padding:0 .6rem;font-weight:600;color:#fff;font-size:.85rem}
.badge.pass{background:var(--pass)}.badge.fail{background:var(--fail)}.badge.interrupted,.badge.nothing-judged{background:var(--other)}
.meter{vertical-align:middle;margin-left:.4rem}.meter .back{fill:#8884}.meter .fill{fill:var(--pass)}.meter.cov .fill{fill:#4a7bd0}
td code{white-space:nowrap}.causes{margin:0;padding-left:1.2rem}.causes li{margin:.1rem 0}.reasons{margin:.2rem 0 0;padding-left:1.2rem}.muted{color:var(--muted)}code{font-size:.9em}
h2{font-size:1.2rem;margin:2rem 0 .5rem}
${LOAD_CHART_CSS}`;

function meter(percent: number, cls: string, what: string): string {
  return `<svg class="meter${cls}" width="80" height="8" role="img" aria-label="${what} ${percent} of 100"><rect class="back" width="80" height="8" rx="4"/><rect class="fill" width="${(percent * 80) / 100}" height="8" rx="4"/></svg>`;
}

/**
 * reports/index.html: the whole run on one page, a row per cell (base URL x model) with its
 * outcome, what it was judged on (and the leading reasons the rest was not), score, coverage and
 * the causes of its failures, each linking the cell's own report.html;
 * then each target's requests and concurrency, and the load phase's chart, a line per cell.
 * Self-contained: no script, no network; a CSP that allows only its own style.
 */
export function renderIndexPage(summary: RunSummary, records: readonly RunRecord[]): string {
  const recordOf = (baseUrl: string, model: string) => records.find((r) => r.target.baseUrl === baseUrl && r.model === model);
  const rows = summary.cells.map((c) => {
    const r = recordOf(c.baseUrl, c.model);
    const causes = r ? (r.causes ?? causesOf(r.results)) : [];
    const link = c.report.replace(/report\.json$/, 'report.html');
    const score = r?.score === undefined ? '<span class="muted">–</span>' : `${r.score}${meter(r.score, '', 'score')}`;
    const coverage = r?.coverage === undefined ? '<span class="muted">–</span>' : `${r.coverage.percent}%${meter(r.coverage.percent, ' cov', 'coverage')}`;
    // What the outcome rests on, as summary.json has it (or the record, or its results, for an older one).
    const judging = c.judging ?? (r ? judgingOfRecord(r) : undefined);
    const reasons = judging?.reasons ?? [];
    const judged = judging === undefined ? '<span class="muted">–</span>' : `${h(judgingNote(judging))}${reasons.length === 0 ? '' : `<ol class="reasons">${reasons.map((x) => `<li>${h(judgingReasonNote(x))}${x.handedTo === undefined ? '' : ` <span class="muted">(handed to <code>${h(x.handedTo)}</code>)</span>`}</li>`).join('')}</ol>`}`;
    const causeList = causes.length === 0 ? '<span class="muted">none</span>' : `<ul class="causes">${causes.slice(0, 5).map((k) => `<li><strong>${h(k.severity)}</strong> ${h(k.headline)} <span class="muted">(${h(plural(k.affected.length, 'check'))})</span></li>`).join('')}${causes.length > 5 ? `<li class="muted">and ${causes.length - 5} more in the report</li>` : ''}</ul>`;
    return `<tr><td><code>${h(r ? targetLabel(r.target) : c.baseUrl)}</code></td><td><code>${h(c.model)}</code></td><td><span class="badge ${c.outcome}">${OUTCOME_WORD[c.outcome]}</span><div class="muted">${h(c.reason)}</div></td><td>${judged}</td><td class="n">${score}</td><td class="n">${coverage}</td><td>${causeList}</td><td><a href="${h(encodeURI(link))}">report</a></td></tr>`;
  });
  return [
    ...pageHead(`${OUTCOME_WORD[summary.outcome]} · svc-conformance, ${plural(summary.cells.length, 'cell')}`, CSS),
    '<body>',
    `<h1><span class="badge ${summary.outcome}">${OUTCOME_WORD[summary.outcome]}</span> svc-conformance, ${h(plural(summary.cells.length, 'cell'))}</h1>`,
    `<p><strong>${h(summary.reason)}.</strong> <span class="muted">${h(summary.startedAt)} → ${h(summary.finishedAt)} · exit code ${summary.exitCode}</span></p>`,
    '<table>',
    '<thead><tr><th>Target</th><th>Model</th><th>Outcome</th><th>Judged</th><th>Score</th><th>Coverage</th><th>Causes</th><th></th></tr></thead>',
    `<tbody>${rows.join('\n')}</tbody>`,
    '</table>',
    ...trafficByTarget(records).map((t) => `<p class="muted">${h(`Requests (${TRAFFIC_SCOPE}) at ${t.label}: ${trafficNote(t.traffic)}`)}</p>`),
    ...loadSection(summary, records),
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** Every cell's load phase (`--load N`) on one chart, a line per cell: information beside the verdicts. */
function loadSection(summary: RunSummary, records: readonly RunRecord[]): string[] {
  const loaded = summary.cells.flatMap((c) => {
    const record = records.find((r) => r.target.baseUrl === c.baseUrl && r.model === c.model);
    return record?.load ? [{ c, record, load: record.load }] : [];
  });
  if (loaded.length === 0) return [];
  // The model names a line; the target too when the cells are of several targets.
  const several = new Set(loaded.map(({ c }) => c.baseUrl)).size > 1;
  const series: LoadSeries[] = loaded.map(({ record, load }) => ({ label: several ? cellName(record) : record.model, load }));
  return ['<section id="load">', '<h2>Under load</h2>', `<p class="muted">${h('The load phase of each cell (--load N): figures, not verdicts. Each cell\'s report has the steps in a table.')}</p>`, loadChart(series), '</section>'];
}
