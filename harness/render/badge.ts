import { gate, scoreOf, scoreText, type Outcome, type RunRecord } from '#harness/results/index.ts';
import { escapeXmlAttr, escapeXmlText } from './escape.ts';

/**
 * A status badge: a self-contained SVG in the shields.io "flat" style (grey label, coloured
 * message, rounded corners, a faint gradient, text with a 1px shadow), drawn here with no network.
 *
 * The message is the score (results/score.ts), `87/100`, coloured by it: 90 and up bright green,
 * 75 green, 50 yellow, below red. For several cells the lowest score stands for the run. With no
 * score at all (nothing was scored), the gate's outcome over every cell speaks: `passing` in bright
 * green when it passed, `failing` in red otherwise.
 *
 * Text widths are estimated, as shields does without a font: Verdana 11px averages about 6.5px a
 * character; the SVG's `textLength` then fits the drawn text to that width, so the box is right
 * whatever font the viewer has.
 */

export const BADGE_COLOURS = { brightgreen: '#4c1', green: '#97ca00', yellow: '#dfb317', red: '#e05d44', label: '#555' } as const;

export interface BadgeContent {
  label: string;
  message: string;
  colour: string;
}

/** The colour of a score. */
export function scoreColour(score: number): string {
  if (score >= 90) return BADGE_COLOURS.brightgreen;
  if (score >= 75) return BADGE_COLOURS.green;
  if (score >= 50) return BADGE_COLOURS.yellow;
  return BADGE_COLOURS.red;
}

/** What the badge of these records says: the lowest cell score, else passing/failing from the gate. */
export function badgeContentOf(records: readonly RunRecord[], label = 'conformance'): BadgeContent & { score: number | undefined; outcome: Outcome } {
  const scores = records.map((r) => scoreOf(r).score).filter((s): s is number => s !== undefined);
  const score = scores.length > 0 ? Math.min(...scores) : undefined;
  const { outcome } = gate(records);
  if (score !== undefined) return { label, message: scoreText(score), colour: scoreColour(score), score, outcome };
  const passing = outcome === 'pass';
  return { label, message: passing ? 'passing' : 'failing', colour: passing ? BADGE_COLOURS.brightgreen : BADGE_COLOURS.red, score, outcome };
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
