/**
 * The load phase as a picture: time to first token (p50 and p95) and output throughput (tokens per
 * second in all) against requests in flight, one line per model (per series given), as inline SVG:
 * no script, no asset, nothing fetched, every text escaped. Drawn from the figures results/
 * computed (loadFigures.ts); a report page (report.html, index.html) places it and styles it with
 * LOAD_CHART_CSS, its own stylesheet (the pages' CSP forbids style attributes).
 */
import type { LoadFigures, LoadStepFigures } from '#harness/results/loadFigures.ts';
import { escapeHtml as h } from './escape.ts';
import { figure } from './loadView.ts';

/** One line of the chart: what its legend says, and its figures. */
export interface LoadSeries {
  label: string;
  load: LoadFigures;
}

/** Told apart by colour-blind readers (Okabe and Ito), and readable on a light and a dark page. */
const COLORS = ['#0072b2', '#d55e00', '#009e73', '#cc79a7', '#e69f00', '#56b4e9', '#8c564b', '#7f3c8d'] as const;

/** The chart's rules, for the page's own stylesheet: text and axes in the page's colour, so it reads in light and dark. */
export const LOAD_CHART_CSS = `
figure.load-chart{margin:1rem 0}figure.load-chart svg{max-width:100%;height:auto;color:inherit}
.load-chart text{fill:currentColor;font:12px system-ui,-apple-system,"Segoe UI",sans-serif}.load-chart text.panel-title{font-weight:600;font-size:13px}
.load-chart .axis{stroke:currentColor;stroke-width:1}.load-chart .grid{stroke:#8886;stroke-width:1}
.load-chart path.series,.load-chart line.key-line{fill:none;stroke-width:2;stroke-linejoin:round}.load-chart path.p95,.load-chart line.p95{stroke-dasharray:6 4}
.load-chart figcaption{color:var(--muted,#59636e);font-size:.85rem;max-width:900px}
table.load td{text-align:right;font-variant-numeric:tabular-nums}
`;

const WIDTH = 900;
const PLOT_HEIGHT = 230;
const MARGIN = { left: 72, right: 20, gap: 110 };
const PANEL_WIDTH = (WIDTH - MARGIN.left - MARGIN.gap - MARGIN.right) / 2;
/** Legend entries per row, and the room each row takes. */
const LEGEND_ROW = 22;

interface Panel {
  title: string;
  axis: string;
  /** The lines it draws of a series: which figure, its name for the legend and data, dashed or not. */
  lines: { figure: string; of: (s: LoadStepFigures) => number | null; dashed: boolean }[];
}

const PANELS: readonly Panel[] = [
  {
    title: 'Time to first token',
    axis: 'time to first token (ms)',
    lines: [
      { figure: 'ttft-p50', of: (s) => s.ttftMs.p50, dashed: false },
      { figure: 'ttft-p95', of: (s) => s.ttftMs.p95, dashed: true },
    ],
  },
  {
    title: 'Output throughput',
    axis: 'output tokens/s, all streams',
    lines: [{ figure: 'tokens-per-second', of: (s) => s.outputTokensPerSecond.all, dashed: false }],
  },
];

/** 0 to at least `max` in 3 to 5 round steps (1, 2, 2.5 or 5 times a power of ten). */
export function niceTicks(max: number): number[] {
  if (!(max > 0)) return [0, 1];
  const raw = max / 5;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => s >= raw)!;
  const count = Math.ceil(max / step - 1e-9);
  return Array.from({ length: count + 1 }, (_, i) => Number((i * step).toPrecision(12)));
}

/** The x ticks: the steps' requests in flight when they are few and far enough apart, else round ones. */
function xTicks(values: readonly number[], scale: (v: number) => number): number[] {
  const distinct = [...new Set(values)].sort((a, b) => a - b);
  const apart = distinct.every((v, i) => i === 0 || scale(v) - scale(distinct[i - 1]!) >= 24);
  return distinct.length > 0 && distinct.length <= 8 && apart ? distinct : niceTicks(distinct.at(-1) ?? 1).slice(1);
}

const num = (v: number): string => String(Math.round(v * 10) / 10);

/** A line through the points it has: a step without the figure breaks it. */
function pathOf(points: readonly ({ x: number; y: number } | undefined)[]): string {
  let d = '';
  let pen = false;
  for (const p of points) {
    if (p === undefined) {
      pen = false;
      continue;
    }
    d += `${pen ? 'L' : 'M'}${num(p.x)} ${num(p.y)}`;
    pen = true;
  }
  return d;
}

/** The legend: a swatch and label per series, flowing over rows, then what solid and dashed mean. */
function legend(series: readonly LoadSeries[]): { svg: string[]; height: number } {
  const out: string[] = [];
  let x = MARGIN.left;
  let row = 0;
  const place = (width: number) => {
    if (x + width > WIDTH - MARGIN.right && x > MARGIN.left) {
      row += 1;
      x = MARGIN.left;
    }
    const at = { x, y: 16 + row * LEGEND_ROW };
    x += width;
    return at;
  };
  series.forEach((s, i) => {
    const label = s.label.length > 48 ? `${s.label.slice(0, 47)}…` : s.label;
    const at = place(40 + label.length * 7 + 24);
    out.push(`<g class="legend-entry" data-series="${h(s.label)}"><title>${h(s.label)}</title><line x1="${at.x}" y1="${at.y}" x2="${at.x + 28}" y2="${at.y}" stroke="${COLORS[i % COLORS.length]}" stroke-width="3"/><text x="${at.x + 36}" y="${at.y + 4}">${h(label)}</text></g>`);
  });
  const key = place(300);
  // Drawn as the lines they name are: in the series' colours (a segment each), solid and dashed.
  const swatch = (x: number, dashed: boolean) => series.map((_, i) => {
    const w = 28 / series.length;
    return `<line class="key-line${dashed ? ' p95' : ''}" x1="${num(x + i * w)}" y1="${key.y}" x2="${num(x + (i + 1) * w)}" y2="${key.y}" stroke="${COLORS[i % COLORS.length]}"/>`;
  }).join('');
  out.push(`<g class="legend-key">${swatch(key.x, false)}<text x="${key.x + 34}" y="${key.y + 4}">p50</text>${swatch(key.x + 72, true)}<text x="${key.x + 106}" y="${key.y + 4}">p95 (time to first token)</text></g>`);
  return { svg: out, height: 16 + (row + 1) * LEGEND_ROW };
}

/** In words, for a reader who cannot see it: every series' figures step by step. */
function describe(series: readonly LoadSeries[]): string {
  return series
    .map(({ label, load }) => `${label}: ${load.steps.map((s) => `at ${s.inFlight} in flight, time to first token p50 ${figure(s.ttftMs.p50)} ms and p95 ${figure(s.ttftMs.p95)} ms, ${figure(s.outputTokensPerSecond.all)} output tokens/s in all`).join('; ')}.`)
    .join(' ');
}

/**
 * The chart of `series` (each a model's load figures, or a cell's), or an empty string when none
 * has a step. `id` makes its title's and description's ids unique on the page.
 */
export function loadChart(series: readonly LoadSeries[], id = 'load-chart'): string {
  const drawn = series.filter((s) => s.load.steps.length > 0);
  if (drawn.length === 0) return '';
  const { svg: legendSvg, height: legendHeight } = legend(drawn);
  const top = legendHeight + 34;
  const bottom = top + PLOT_HEIGHT;
  const height = bottom + 52;
  const maxX = Math.max(...drawn.flatMap((s) => s.load.steps.map((st) => st.inFlight)));
  const out: string[] = [];
  PANELS.forEach((panel, p) => {
    const x0 = MARGIN.left + p * (PANEL_WIDTH + MARGIN.gap);
    const x1 = x0 + PANEL_WIDTH;
    const sx = (v: number) => x0 + (v / maxX) * PANEL_WIDTH;
    const values = drawn.flatMap((s) => s.load.steps.flatMap((st) => panel.lines.flatMap((l) => l.of(st) ?? [])));
    const yTicks = niceTicks(Math.max(0, ...values));
    const maxY = yTicks.at(-1)!;
    const sy = (v: number) => bottom - (v / maxY) * PLOT_HEIGHT;
    out.push(`<g class="panel" data-panel="${p === 0 ? 'ttft' : 'throughput'}">`);
    out.push(`<text class="panel-title" x="${x0}" y="${top - 14}">${h(panel.title)}</text>`);
    for (const t of yTicks) out.push(`<line class="grid" x1="${x0}" y1="${num(sy(t))}" x2="${x1}" y2="${num(sy(t))}"/><text class="tick" x="${x0 - 8}" y="${num(sy(t) + 4)}" text-anchor="end">${h(figure(t))}</text>`);
    for (const t of xTicks(drawn.flatMap((s) => s.load.steps.map((st) => st.inFlight)), sx)) out.push(`<line class="axis" x1="${num(sx(t))}" y1="${bottom}" x2="${num(sx(t))}" y2="${bottom + 5}"/><text class="tick" x="${num(sx(t))}" y="${bottom + 19}" text-anchor="middle">${h(String(t))}</text>`);
    out.push(`<line class="axis" x1="${x0}" y1="${top}" x2="${x0}" y2="${bottom}"/><line class="axis" x1="${x0}" y1="${bottom}" x2="${x1}" y2="${bottom}"/>`);
    out.push(`<text class="axis-label" x="${num((x0 + x1) / 2)}" y="${bottom + 40}" text-anchor="middle">requests in flight</text>`);
    out.push(`<text class="axis-label" transform="translate(${x0 - 50} ${num((top + bottom) / 2)}) rotate(-90)" text-anchor="middle">${h(panel.axis)}</text>`);
    if (values.length === 0) out.push(`<text class="empty" x="${num((x0 + x1) / 2)}" y="${num((top + bottom) / 2)}" text-anchor="middle">nothing measured</text>`);
    drawn.forEach((s, i) => {
      const color = COLORS[i % COLORS.length]!;
      for (const line of panel.lines) {
        const points = s.load.steps.map((st) => {
          const v = line.of(st);
          return v === null ? undefined : { x: sx(st.inFlight), y: sy(v), v, inFlight: st.inFlight };
        });
        const d = pathOf(points);
        if (d === '') continue;
        out.push(`<path class="series${line.dashed ? ' p95' : ''}" data-series="${h(s.label)}" data-figure="${line.figure}" stroke="${color}" d="${d}"/>`);
        for (const pt of points) {
          if (pt === undefined) continue;
          out.push(`<circle cx="${num(pt.x)}" cy="${num(pt.y)}" r="3.5" fill="${color}"><title>${h(`${s.label}: ${line.figure.replace('ttft-', 'time to first token ').replace('tokens-per-second', 'output tokens/s in all')} ${figure(pt.v)} at ${pt.inFlight} in flight`)}</title></circle>`);
        }
      }
    });
    out.push('</g>');
  });
  const title = 'Under load: time to first token and output throughput against requests in flight';
  return [
    '<figure class="load-chart">',
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" role="img" aria-labelledby="${h(id)}-title ${h(id)}-desc">`,
    `<title id="${h(id)}-title">${h(title)}</title>`,
    `<desc id="${h(id)}-desc">${h(describe(drawn))}</desc>`,
    ...legendSvg,
    ...out,
    '</svg>',
    `<figcaption>${h('Information, not verdicts: solid lines are the median time to first token, dashed ones its 95th percentile; on the right, the output tokens per second of all the step\'s answers together.')}</figcaption>`,
    '</figure>',
  ].join('\n');
}
