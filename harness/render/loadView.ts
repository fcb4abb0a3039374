/**
 * The load phase's figures (results/loadFigures.ts) as every report words them: the columns of the
 * steps' table, a figure as text, the one line of summary.md, the recovery. Renderers format; the
 * figures were computed once, in results/.
 */
import type { LoadFigures, LoadStepFigures } from '#harness/results/loadFigures.ts';
import { duration, plural } from './view.ts';

/** A figure as text: `–` where there was nothing to measure; whole numbers from 100, else a tenth. */
export function figure(v: number | null): string {
  if (v === null) return '–';
  return v >= 100 ? String(Math.round(v)) : String(Math.round(v * 10) / 10);
}

/** The steps' table: each column's heading and a step's cell (every cell a number, right-aligned). */
export const LOAD_COLUMNS: readonly { head: string; cell: (s: LoadStepFigures) => string }[] = [
  { head: 'in flight', cell: (s) => String(s.inFlight) },
  { head: 'requests', cell: (s) => String(s.requests) },
  { head: '200', cell: (s) => String(s.answered) },
  { head: '429', cell: (s) => String(s.refused429) },
  { head: '503', cell: (s) => String(s.refused503) },
  { head: 'other', cell: (s) => String(s.other) },
  { head: 'TTFT p50 (ms)', cell: (s) => figure(s.ttftMs.p50) },
  { head: 'TTFT p95 (ms)', cell: (s) => figure(s.ttftMs.p95) },
  { head: 'TTFT p99 (ms)', cell: (s) => figure(s.ttftMs.p99) },
  { head: 'chunk gap p95 (ms)', cell: (s) => figure(s.chunkGapMs.p95) },
  { head: 'tokens/s per stream', cell: (s) => figure(s.outputTokensPerSecond.perStream) },
  { head: 'tokens/s in all', cell: (s) => figure(s.outputTokensPerSecond.all) },
  { head: 'wall time', cell: (s) => (s.wallMs === null ? '–' : duration(s.wallMs)) },
];

/** What the columns mean, in one paragraph. */
export const LOAD_LEGEND =
  'TTFT: time to first token of the streams (sending to the first chunk with text); chunk gap: between consecutive chunks of a stream; tokens/s per stream: the median over streams of output tokens from the first token to the end; tokens/s in all: the step\'s output tokens over its wall time; other: any other status, or no answer at all. Every percentile is nearest rank; – where a step had nothing to measure.';

/** The heading's sentence: what the phase did. */
export function loadIntro(load: LoadFigures, model: string): string {
  return `The load phase ramped the requests in flight to ${load.n} against ${model} (${load.steps.map((s) => s.inFlight).join(', ')}): ${plural(load.totals.requests, 'request')}. These figures are information, not verdicts: the load checks judge the answers.`;
}

/** After the peak, in words; undefined when the phase did not get there. */
export function recoveryNote(load: LoadFigures): string | undefined {
  const r = load.recovery;
  if (r === undefined) return undefined;
  const tries = plural(r.tries, 'try', 'tries');
  return r.recoveredMs === null ? `After the peak it did not answer 200 again within ${duration(r.windowMs)} (${tries}).` : `After the peak it answered 200 again after ${duration(r.recoveredMs)} (within ${duration(r.windowMs)}, ${tries}).`;
}

/** The step at the peak: the most requests in flight. */
export function peakOf(load: LoadFigures): LoadStepFigures | undefined {
  return load.steps.reduce<LoadStepFigures | undefined>((top, s) => (top === undefined || s.inFlight > top.inFlight ? s : top), undefined);
}

/** summary.md's line: `up to 16 in flight, 48 requests, 12 refused 429, TTFT p95 120 ms at 16, ...`. */
export function loadLine(load: LoadFigures): string {
  const t = load.totals;
  const peak = peakOf(load);
  const parts = [
    `up to ${peak?.inFlight ?? 0} in flight`,
    plural(t.requests, 'request'),
    `${t.answered} answered 200`,
    `${t.refused429} refused 429`,
    ...(t.refused503 > 0 ? [`${t.refused503} refused 503`] : []),
    ...(t.other > 0 ? [`${t.other} other (another status or no answer)`] : []),
    ...(peak && peak.ttftMs.p95 !== null ? [`TTFT p95 ${figure(peak.ttftMs.p95)} ms at ${peak.inFlight}`] : []),
    ...(peak && peak.outputTokensPerSecond.all !== null ? [`${figure(peak.outputTokensPerSecond.all)} tokens/s in all at ${peak.inFlight}`] : []),
  ];
  const r = load.recovery;
  const after = r === undefined ? [] : [r.recoveredMs === null ? `no 200 again within ${duration(r.windowMs)} after the peak` : `200 again ${duration(r.recoveredMs)} after the peak`];
  return [...parts, ...after, ...(load.endedEarly === undefined ? [] : [`ended early: ${load.endedEarly}`])].join(', ');
}
