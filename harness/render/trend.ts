import type { Verdict } from '#harness/core/outcome.ts';
import { cellGate, coverageOf, OUTCOME_WORD, scoreOf, scoreText, targetKey, type CatalogueCheck, type Coverage, type Outcome, type RunRecord } from '#harness/results/index.ts';
import { escapeHtml as h, escapeXmlAttr, escapeXmlText } from './escape.ts';

/**
 * The trend of the same cells over several runs: per cell (target key and model, as `--baseline`
 * matches them), its reports in the order they started, each with its score (results/score.ts),
 * coverage (results/coverage.ts), outcome (results/gate.ts) and the checks whose verdict changed
 * since the report before. Rendered as a self-contained HTML page (no script, no network) with an
 * inline SVG line chart per cell, and as that chart alone in one SVG. Pure: the same records and
 * catalogue give the same bytes.
 */

/** A check whose verdict differs from the report before (`undefined`: the check was not in that report). */
export interface VerdictChange {
  checkId: string;
  before: Verdict | undefined;
  after: Verdict | undefined;
}

export interface TrendPoint {
  startedAt: string;
  specRevision: string;
  harnessVersion: string;
  score: number | undefined;
  coverage: Coverage;
  outcome: Outcome;
  /** Against the cell's report before; empty for the first. */
  changes: VerdictChange[];
}

export interface TrendCell {
  target: string;
  model: string;
  points: TrendPoint[];
}

const time = (iso: string) => {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? 0 : t;
};

function changesBetween(before: RunRecord, after: RunRecord): VerdictChange[] {
  const was = new Map(before.results.map((r) => [r.checkId, r.verdict]));
  const now = new Map(after.results.map((r) => [r.checkId, r.verdict]));
  const ids = [...new Set([...was.keys(), ...now.keys()])].sort();
  return ids.filter((id) => was.get(id) !== now.get(id)).map((checkId) => ({ checkId, before: was.get(checkId), after: now.get(checkId) }));
}

/** The cells of these records, each with its reports ordered by startedAt (ties: in the order given). */
export function trendOf(records: readonly RunRecord[], catalogue: readonly CatalogueCheck[]): TrendCell[] {
  const byCell = new Map<string, { target: string; model: string; records: RunRecord[] }>();
  for (const r of records) {
    const target = targetKey(r.target);
    const key = JSON.stringify([target, r.model]);
    const cell = byCell.get(key) ?? { target, model: r.model, records: [] };
    cell.records.push(r);
    byCell.set(key, cell);
  }
  const cells = [...byCell.values()].sort((a, b) => (a.target === b.target ? (a.model < b.model ? -1 : a.model > b.model ? 1 : 0) : a.target < b.target ? -1 : 1));
  return cells.map(({ target, model, records: rs }) => {
    const ordered = rs.map((r, i) => ({ r, i })).sort((a, b) => time(a.r.startedAt) - time(b.r.startedAt) || a.i - b.i).map((x) => x.r);
    return {
      target,
      model,
      points: ordered.map((r, i) => ({
        startedAt: r.startedAt,
        specRevision: r.spec.revision,
        harnessVersion: r.harness.version,
        score: scoreOf(r).score,
        coverage: coverageOf(r, catalogue),
        outcome: cellGate(r).outcome,
        changes: i === 0 ? [] : changesBetween(ordered[i - 1]!, r),
      })),
    };
  });
}

/** `2026-05-10 09:00 UTC`, or the text as given when it is not a date. */
export function dateText(iso: string): string {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? iso : `${new Date(t).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

const cellTitle = (c: TrendCell) => `${c.model} at ${c.target}`;

// ---- the chart --------------------------------------------------------------------------------

const CHART = { width: 720, height: 260, left: 44, right: 150, top: 34, bottom: 44 } as const;
const SCORE_COLOUR = '#0969da';
const COVERAGE_COLOUR = '#bc4c00';

/** Runs of consecutive defined values, as point lists: a missing value breaks the line. */
function segments(xs: readonly number[], ys: readonly (number | undefined)[]): [number, number][][] {
  const out: [number, number][][] = [];
  let cur: [number, number][] = [];
  ys.forEach((y, i) => {
    if (y === undefined) {
      if (cur.length > 0) out.push(cur);
      cur = [];
    } else cur.push([xs[i]!, y]);
  });
  if (cur.length > 0) out.push(cur);
  return out;
}

const fmt = (n: number) => (Math.round(n * 10) / 10).toString();

/** One cell's chart as an SVG group of CHART.width x CHART.height at (0, y). Text is XML-escaped (also valid in HTML). */
function chartGroup(cell: TrendCell, y: number, titled: boolean): string {
  const { width, height, left, right, top, bottom } = CHART;
  const plotW = width - left - right;
  const plotH = height - top - bottom;
  const n = cell.points.length;
  const xs = cell.points.map((_, i) => left + (n === 1 ? plotW / 2 : (plotW * i) / (n - 1)));
  const yOf = (v: number) => top + plotH - (plotH * v) / 100;
  const parts: string[] = [`<g transform="translate(0,${y})">`];
  if (titled) parts.push(`<text x="${left}" y="20" font-size="14" font-weight="600" fill="#1f2328">${escapeXmlText(cellTitle(cell))}</text>`);
  for (const v of [0, 25, 50, 75, 100]) {
    parts.push(`<line x1="${left}" x2="${left + plotW}" y1="${fmt(yOf(v))}" y2="${fmt(yOf(v))}" stroke="#d1d9e0" stroke-width="1"${v === 0 ? '' : ' stroke-dasharray="2,3"'}/>`);
    parts.push(`<text x="${left - 6}" y="${fmt(yOf(v) + 4)}" font-size="11" text-anchor="end" fill="#59636e">${v}</text>`);
  }
  // Every date label when they fit, else every k-th (first and last always).
  const every = Math.max(1, Math.ceil(n / Math.max(1, Math.floor(plotW / 90))));
  cell.points.forEach((p, i) => {
    if (i % every !== 0 && i !== n - 1) return;
    const d = dateText(p.startedAt).slice(0, 10);
    parts.push(`<text x="${fmt(xs[i]!)}" y="${top + plotH + 18}" font-size="11" text-anchor="middle" fill="#59636e">${escapeXmlText(d)}</text>`);
  });
  const series = (name: string, colour: string, values: (number | undefined)[], dashed: boolean, label: (v: number, p: TrendPoint) => string) => {
    for (const seg of segments(xs, values)) {
      if (seg.length > 1) parts.push(`<polyline fill="none" stroke="${colour}" stroke-width="2"${dashed ? ' stroke-dasharray="6,4"' : ''} points="${seg.map(([x, v]) => `${fmt(x)},${fmt(yOf(v))}`).join(' ')}"/>`);
    }
    values.forEach((v, i) => {
      if (v === undefined) return;
      const p = cell.points[i]!;
      parts.push(`<circle cx="${fmt(xs[i]!)}" cy="${fmt(yOf(v))}" r="3.5" fill="${colour}"><title>${escapeXmlText(`${name}, ${dateText(p.startedAt)}: ${label(v, p)}`)}</title></circle>`);
    });
  };
  series('coverage', COVERAGE_COLOUR, cell.points.map((p) => p.coverage.percent), true, (v, p) => `${v}% (${p.coverage.covered} of ${p.coverage.total} spec entries)`);
  series('score', SCORE_COLOUR, cell.points.map((p) => p.score), false, (v) => `${v}/100`);
  // Legend, right of the plot.
  const lx = left + plotW + 20;
  parts.push(`<line x1="${lx}" x2="${lx + 24}" y1="${top + 8}" y2="${top + 8}" stroke="${SCORE_COLOUR}" stroke-width="2"/><text x="${lx + 30}" y="${top + 12}" font-size="12" fill="#1f2328">score</text>`);
  parts.push(`<line x1="${lx}" x2="${lx + 24}" y1="${top + 28}" y2="${top + 28}" stroke="${COVERAGE_COLOUR}" stroke-width="2" stroke-dasharray="6,4"/><text x="${lx + 30}" y="${top + 32}" font-size="12" fill="#1f2328">coverage %</text>`);
  const last = cell.points[n - 1];
  if (last) {
    parts.push(`<text x="${lx}" y="${top + 60}" font-size="11" fill="#59636e">latest: ${escapeXmlText(scoreText(last.score))}</text>`);
    parts.push(`<text x="${lx}" y="${top + 76}" font-size="11" fill="#59636e">coverage ${last.coverage.percent ?? '–'}%</text>`);
    parts.push(`<text x="${lx}" y="${top + 92}" font-size="11" fill="#59636e">${escapeXmlText(OUTCOME_WORD[last.outcome])}</text>`);
  }
  parts.push('</g>');
  return parts.join('\n');
}

/** The charts of these cells, one under the other, as one SVG element. */
function chartSvg(cells: readonly TrendCell[], label: string, titled = true): string {
  const height = Math.max(1, cells.length) * CHART.height;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${CHART.width}" height="${height}" viewBox="0 0 ${CHART.width} ${height}" role="img" aria-label="${escapeXmlAttr(label)}" font-family="system-ui,-apple-system,'Segoe UI',sans-serif">`,
    `<title>${escapeXmlText(label)}</title>`,
    `<rect width="${CHART.width}" height="${height}" fill="#fff"/>`,
    ...(cells.length === 0 ? [`<text x="${CHART.left}" y="40" font-size="13" fill="#59636e">no report</text>`] : cells.map((c, i) => chartGroup(c, i * CHART.height, titled))),
    '</svg>',
  ].join('\n');
}

/** trend.svg: the chart of every cell, alone (pure). */
export function renderTrendSvg(cells: readonly TrendCell[]): string {
  return `${chartSvg(cells, 'Conformance trend: score and coverage per cell')}\n`;
}

// ---- the page ---------------------------------------------------------------------------------

const CSS = `
:root{--fg:#1f2328;--muted:#59636e;--bg:#fff;--panel:#f6f8fa;--line:#d1d9e0;--fail:#cf222e;--flaky:#9a6700;--error:#bc4c00;--unsupported:#6639ba;--skip:#59636e;--pass:#1a7f37}
*{box-sizing:border-box}
body{margin:0 auto;max-width:78rem;padding:1.5rem;font:14px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg)}
h1{font-size:1.5rem;margin:0 0 .5rem}h2{font-size:1.2rem;margin:2rem 0 .75rem;border-bottom:1px solid var(--line);padding-bottom:.25rem}
p.lead{color:var(--muted);margin:.25rem 0 1rem;max-width:60rem}
code{font:12.5px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
figure{margin:0 0 1rem}figure svg{max-width:100%;height:auto;border:1px solid var(--line);border-radius:6px}
table{border-collapse:collapse;width:100%}th,td{border:1px solid var(--line);padding:.3rem .6rem;text-align:left;vertical-align:top}th{background:var(--panel)}
td.num{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}td.date{white-space:nowrap}
.small{color:var(--muted);font-size:.8rem}
.outcome{display:inline-block;border-radius:1rem;padding:0 .6rem;font-weight:600;color:#fff;font-size:.8rem;white-space:nowrap}
.outcome.pass{background:var(--pass)}.outcome.fail{background:var(--fail)}.outcome.interrupted,.outcome.nothing-judged{background:var(--error)}
ul.changes{list-style:none;margin:0;padding:0}ul.changes li{overflow-wrap:anywhere}.step{white-space:nowrap}
.v{font-weight:600}.v.pass{color:var(--pass)}.v.fail{color:var(--fail)}.v.flaky{color:var(--flaky)}.v.error{color:var(--error)}.v.unsupported{color:var(--unsupported)}.v.skip,.v.none{color:var(--skip)}
details>summary{cursor:pointer}
footer{margin:2rem 0 0;color:var(--muted);font-size:.85rem}
`;

const verdictHtml = (v: Verdict | undefined) => (v === undefined ? '<span class="v none">absent</span>' : `<span class="v ${v}">${h(v)}</span>`);

function changesHtml(p: TrendPoint, first: boolean): string {
  if (first) return '<span class="small">first report</span>';
  if (p.changes.length === 0) return '<span class="small">no verdict changed</span>';
  const items = p.changes.map((c) => `<li><code>${h(c.checkId)}</code>: <span class="step">${verdictHtml(c.before)} → ${verdictHtml(c.after)}</span></li>`).join('');
  const list = `<ul class="changes">${items}</ul>`;
  return p.changes.length <= 8 ? list : `<details><summary>${p.changes.length} checks changed</summary>${list}</details>`;
}

function coverageHtml(c: Coverage): string {
  const skipped = Object.entries(c.notJudged).filter(([, n]) => n > 0).map(([k, n]) => `${n} ${k}`);
  return `${c.percent ?? '–'}% <span class="small">(${c.covered} of ${c.total})</span>${skipped.length > 0 ? `<br><span class="small">not judged: ${h(skipped.join(', '))}</span>` : ''}`;
}

function cellHtml(cell: TrendCell): string {
  const rows = cell.points.map((p, i) =>
    [
      '<tr>',
      `<td class="date">${h(dateText(p.startedAt))}<br><span class="small">spec ${h(p.specRevision)} · harness ${h(p.harnessVersion)}</span></td>`,
      `<td class="num">${h(scoreText(p.score))}</td>`,
      `<td>${coverageHtml(p.coverage)}</td>`,
      `<td><span class="outcome ${p.outcome}">${h(OUTCOME_WORD[p.outcome])}</span></td>`,
      `<td>${changesHtml(p, i === 0)}</td>`,
      '</tr>',
    ].join(''),
  );
  return [
    `<section><h2>${h(cellTitle(cell))}</h2>`,
    `<figure>${chartSvg([cell], `score and coverage of ${cellTitle(cell)}`, false)}</figure>`,
    '<table><thead><tr><th>started</th><th>score</th><th>coverage</th><th>outcome</th><th>checks whose verdict changed</th></tr></thead>',
    `<tbody>${rows.join('\n')}</tbody></table></section>`,
  ].join('\n');
}

/** trend.html (pure): see the top of this file. */
export function renderTrendHtml(cells: readonly TrendCell[]): string {
  const reports = cells.reduce((n, c) => n + c.points.length, 0);
  const dates = cells.flatMap((c) => c.points.map((p) => p.startedAt)).sort((a, b) => time(a) - time(b));
  const total = cells[0]?.points[0]?.coverage.total;
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">',
    `<title>Conformance trend</title><style>${CSS}</style></head><body>`,
    '<h1>Conformance trend</h1>',
    `<p class="lead">${reports} report${reports === 1 ? '' : 's'} of ${cells.length} cell${cells.length === 1 ? '' : 's'}${dates.length > 0 ? `, ${h(dateText(dates[0]!))} to ${h(dateText(dates[dates.length - 1]!))}` : ''}. ` +
      'Score: every scored check (pass, fail, flaky, error) weighs must 3, should 2, advisory 1; score = round(100 × weight passed / weight scored), a flaky check earning half, known failures left out. ' +
      `Coverage: the spec entries judged (pass, fail or flaky) of the ${total ?? 0} entries the harness has checks for. The outcome is the gate's, as the run decided it.</p>`,
    ...cells.map(cellHtml),
    '<footer>Written by svc-conformance trend. Self-contained: no script, nothing fetched.</footer>',
    '</body></html>',
    '',
  ].join('\n');
}
