import { gate, scoreOf, scoreText, type Outcome, type RunRecord } from '#harness/results/index.ts';
import { escapeXmlAttr, escapeXmlText } from './escape.ts';

/**
 * A status badge: a self-contained SVG in the shields.io "flat" style (grey label, coloured
 * message, rounded corners, a faint gradient, text with a 1px shadow), drawn here with no network.
 *
 * The colour is the gate's outcome over every cell, what the exit code says: bright green for a
 * pass, red for a failure or an interrupted run, grey when nothing was judged; a score never makes a
 * failing run look green. The message is the score (results/score.ts), `87/100`, the lowest over the
 * cells, followed by the outcome's word when the run did not pass (`98/100 failing`); with no score
 * at all, the outcome's word alone (`passing`, `failing`, `nothing judged`, `interrupted`).
 *
 * Text widths are estimated, as shields does without a font: Verdana 11px averages about 6.5px a
 * character; the SVG's `textLength` then fits the drawn text to that width, so the box is right
 * whatever font the viewer has.
 */

export const BADGE_COLOURS = { brightgreen: '#4c1', red: '#e05d44', lightgrey: '#9f9f9f', label: '#555' } as const;

/** Each outcome's colour and word. */
const OUTCOME_BADGE: Readonly<Record<Outcome, { colour: string; word: string }>> = {
  pass: { colour: BADGE_COLOURS.brightgreen, word: 'passing' },
  fail: { colour: BADGE_COLOURS.red, word: 'failing' },
  interrupted: { colour: BADGE_COLOURS.red, word: 'interrupted' },
  'nothing-judged': { colour: BADGE_COLOURS.lightgrey, word: 'nothing judged' },
};

export interface BadgeContent {
  label: string;
  message: string;
  colour: string;
}

/** What the badge of these records says: the gate's outcome in its colour, with the lowest cell score. */
export function badgeContentOf(records: readonly RunRecord[], label = 'conformance'): BadgeContent & { score: number | undefined; outcome: Outcome } {
  const scores = records.map((r) => scoreOf(r).score).filter((s): s is number => s !== undefined);
  const score = scores.length > 0 ? Math.min(...scores) : undefined;
  const { outcome } = gate(records);
  const { colour, word } = OUTCOME_BADGE[outcome];
  const message = score === undefined ? word : outcome === 'pass' ? scoreText(score) : `${scoreText(score)} ${word}`;
  return { label, message, colour, score, outcome };
}

/** Estimated width in px of text in Verdana 11px. */
export function textWidth(text: string): number {
  return Math.round(Array.from(text).length * 6.5);
}

/** The badge SVG of a label, message and colour (pure). */
export function renderBadgeSvg({ label, message, colour }: BadgeContent): string {
  const lw = textWidth(label) + 10;
  const mw = textWidth(message) + 10;
  const w = lw + mw;
  const title = `${label}: ${message}`;
  // Text is drawn at 10x and scaled down by .1, as shields does, for finer positioning.
  const text = (s: string, centre: number, width: number) =>
    `<text aria-hidden="true" x="${centre * 10}" y="150" fill="#010101" fill-opacity=".3" transform="scale(.1)" textLength="${width * 10}">${escapeXmlText(s)}</text>` +
    `<text x="${centre * 10}" y="140" transform="scale(.1)" fill="#fff" textLength="${width * 10}">${escapeXmlText(s)}</text>`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="20" role="img" aria-label="${escapeXmlAttr(title)}">`,
    `<title>${escapeXmlText(title)}</title>`,
    '<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>',
    `<clipPath id="r"><rect width="${w}" height="20" rx="3" fill="#fff"/></clipPath>`,
    `<g clip-path="url(#r)"><rect width="${lw}" height="20" fill="${BADGE_COLOURS.label}"/><rect x="${lw}" width="${mw}" height="20" fill="${escapeXmlAttr(colour)}"/><rect width="${w}" height="20" fill="url(#s)"/></g>`,
    `<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" text-rendering="geometricPrecision" font-size="110">`,
    text(label, lw / 2, lw - 10),
    text(message, lw + mw / 2, mw - 10),
    '</g>',
    '</svg>',
    '',
  ].join('\n');
}

/** The badge of these records (pure): see the top of this file. */
export function renderBadge(records: readonly RunRecord[], label?: string): string {
  return renderBadgeSvg(badgeContentOf(records, label));
}
