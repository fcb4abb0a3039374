import { generatedRegion } from '#harness/core/generatedRegion.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildRegistry } from '#harness/checks/index.ts';
import type { Severity } from '#harness/core/outcome.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { recordedThirdParties, type RecordedThirdParty } from './recorded.ts';

/**
 * docs/endpoints.md's verdict tables, one per recorded real server, rendered from its pins
 * (`<name>.pins.ts`): every pinned verdict that is not a pass, with its why. Written between the two
 * markers by `npm run docs:pins` (scripts/docs-pins.ts); pinsTables.test.ts fails when the committed
 * page differs from this rendering, so the tables cannot be edited by hand or go stale.
 */
export const PINS_TABLES_START = '<!-- generated: pins tables (npm run docs:pins) -->';
export const PINS_TABLES_END = '<!-- end generated -->';

/** The doc the tables live in, relative to the repository root. */
export const PINS_TABLES_DOC = 'docs/endpoints.md';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** What one server's table is made from: its pins, and when its recording was made (its manifest). */
export interface PinsTableSource {
  recorded: RecordedThirdParty;
  /** The manifest's `recordedAt`, when it has one. */
  recordedAt: string | undefined;
}

/** Every recorded server with its manifest's date, and each check's severity from the registry. */
export async function pinsTablesSources(): Promise<{ sources: PinsTableSource[]; severityOf: (checkId: string) => Severity | undefined }> {
  const severities = new Map(buildRegistry(loadSpec().spec).all().map((c) => [c.id, c.severity] as const));
  const sources = (await recordedThirdParties()).map((recorded) => {
    const manifest = JSON.parse(readFileSync(join(ROOT, recorded.fixtures, 'manifest.json'), 'utf8')) as { recordedAt?: string };
    return { recorded, recordedAt: manifest.recordedAt };
  });
  return { sources, severityOf: (id) => severities.get(id) };
}

// Failures first, the strongest first: what a reader comes for.
const VERDICT_ORDER = ['fail', 'error', 'flaky', 'unsupported', 'skip'];
const SEVERITY_ORDER: readonly (Severity | undefined)[] = ['must', 'should', 'advisory', undefined];

/** A table cell: one line, no column break. */
const cell = (text: string): string => text.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');

/** Rows of one verdict, severity and why, so a why shared by many checks (a route out of scope) is said once. */
interface Row {
  verdict: string;
  severity: Severity | undefined;
  why: string;
  checks: string[];
}

function rowsOf(r: RecordedThirdParty, severityOf: (checkId: string) => Severity | undefined): Row[] {
  const rows = new Map<string, Row>();
  for (const [id, p] of Object.entries(r.verdicts).sort(([a], [b]) => a.localeCompare(b))) {
    if (p.verdict === 'pass') continue;
    const severity = severityOf(id);
    const key = JSON.stringify([p.verdict, severity, p.why]);
    const row = rows.get(key) ?? { verdict: p.verdict, severity, why: p.why, checks: [] };
    row.checks.push(id);
    rows.set(key, row);
  }
  const rank = (row: Row) => [VERDICT_ORDER.indexOf(row.verdict), SEVERITY_ORDER.indexOf(row.severity)] as const;
  return [...rows.values()].sort((a, b) => {
    const [va, sa] = rank(a);
    const [vb, sb] = rank(b);
    return va - vb || sa - sb || a.checks[0]!.localeCompare(b.checks[0]!);
  });
}

/** "12 fail (10 must, 2 should), 23 skip" of the pins that are not a pass. */
function tally(r: RecordedThirdParty, severityOf: (checkId: string) => Severity | undefined): string {
  const pins = Object.entries(r.verdicts);
  const parts = VERDICT_ORDER.flatMap((v) => {
    const of = pins.filter(([, p]) => p.verdict === v);
    if (of.length === 0) return [];
    if (v !== 'fail') return [`${of.length} ${v}`];
    const by = SEVERITY_ORDER.map((s) => [s ?? 'unregistered', of.filter(([id]) => severityOf(id) === s).length] as const).filter(([, n]) => n > 0);
    return [`${of.length} fail (${by.map(([s, n]) => `${n} ${s}`).join(', ')})`];
  });
  const passes = pins.filter(([, p]) => p.verdict === 'pass').length;
  return `${pins.length} pinned: ${passes} pass${parts.map((p) => `, ${p}`).join('')}`;
}

function tableOf(s: PinsTableSource, severityOf: (checkId: string) => Severity | undefined): string {
  const r = s.recorded;
  const rows = rowsOf(r, severityOf);
  const recorded = s.recordedAt === undefined ? '' : `, recorded ${s.recordedAt.slice(0, 10)}`;
  const lines = [
    `<details><summary><code>${r.name}</code>: ${tally(r, severityOf)}</summary>`,
    '',
    `\`${r.fixtures}\`${recorded}, replayed with \`${[...r.args].join(' ') || '(no extra flags)'}\`: exit ${r.exitCode}. Pins: \`harness/testing/thirdParty/${r.name}.pins.ts\`.`,
    '',
  ];
  if (rows.length === 0) lines.push('Every pinned verdict is a pass.');
  else {
    lines.push('| check | severity | verdict | why |', '|---|---|---|---|');
    for (const row of rows) lines.push(`| ${row.checks.map((id) => `\`${id}\``).join(' ')} | ${row.severity ?? '(not a registered check)'} | **${row.verdict}** | ${cell(row.why) || '(no why given)'} |`);
  }
  lines.push('', '</details>');
  return lines.join('\n');
}

/** The tables of every server, as they stand between the markers (markers excluded). */
export function renderPinsTables(sources: readonly PinsTableSource[], severityOf: (checkId: string) => Severity | undefined): string {
  return `\n${sources.map((s) => tableOf(s, severityOf)).join('\n\n')}\n`;
}

const region = generatedRegion(PINS_TABLES_DOC, PINS_TABLES_START, PINS_TABLES_END);

/** The text between the markers. */
export const pinsTablesIn = (doc: string): string => region.inside(doc);

/** `doc` with the region between the markers replaced by `tables`; the rest byte for byte. */
export const withPinsTables = (doc: string, tables: string): string => region.replaced(doc, tables);
