import { existsSync, readFileSync, statSync } from 'node:fs';
import { UsageError } from '#harness/core/errors/index.ts';
import { globMatcher } from '#harness/core/glob.ts';
import { isRecord } from '#harness/core/isRecord.ts';
import type { KnownEntry } from '#harness/results/known.ts';
import { locate } from '#harness/spec/locate.ts';
import { yaml } from '#harness/spec/yaml.ts';

/** The known-failures file a run reads when it finds one in the working directory (and none is given). */
export const KNOWN_FILE = 'svc-conformance.known.yaml';
const KEYS = ['check', 'model', 'base_url', 'reason', 'until', 'link', 'causes', 'pass_rate'] as const;

/**
 * Reads a known-failures file:
 *
 *   known:
 *     - check: usage.total.equals-prompt-plus-completion   # an id, or a glob with *
 *       model: svc-v4-flash                                 # optional: this model only
 *       base_url: https://gw.example.com                    # optional: this target only
 *       reason: the gateway adds its own tokens to total_tokens   # required
 *       until: 2026-12-31                                   # optional: past it, it fails the run
 *       link: https://tracker.example.com/GW-123            # optional
 *       causes: ['usage.total.equals-prompt-plus-completion at:/usage']   # optional: the causes it is known for
 *       pass_rate: 0.8                                      # optional: a flaky check's expected pass rate (--repeat N)
 *
 * A problem names the file, the line and the field (exit 2). Each entry keeps `file:line`.
 */
export function readKnownFile(file: string, command = 'run'): KnownEntry[] {
  if (!existsSync(file)) throw new UsageError(`${command}: --known ${file}: no such file.`);
  if (!statSync(file).isFile()) throw new UsageError(`${command}: --known ${file}: not a file (a known-failures file is YAML, e.g. ${KNOWN_FILE}).`);
  const { LineCounter, parseDocument } = yaml();
  const lineCounter = new LineCounter();
  const doc = parseDocument(readFileSync(file, 'utf8'), { lineCounter, prettyErrors: false });
  const lineOf = (path: (string | number)[]) => locate(doc, lineCounter, path);
  const problem = (path: (string | number)[], message: string): never => {
    const { line, column } = lineOf(path);
    throw new UsageError(`${command}: ${file}:${line}:${column} ${path.join('.') || '/'}: ${message}`);
  };
  if (doc.errors.length > 0) {
    const pos = lineCounter.linePos(doc.errors[0]!.pos[0]);
    throw new UsageError(`${command}: ${file}:${pos.line}:${pos.col}: YAML syntax: ${doc.errors[0]!.message.split('\n')[0]}`);
  }
  const data = doc.toJS() as unknown;
  const list = isRecord(data) ? data.known : undefined;
  if (!Array.isArray(list)) return problem([], 'a mapping with `known:`, a list of entries (check, reason; optionally model, base_url, until, link, causes)');
  return list.map((raw, i): KnownEntry => {
    if (!isRecord(raw)) return problem(['known', i], 'each entry is a mapping with check and reason');
    const e = raw;
    for (const k of Object.keys(e)) if (!(KEYS as readonly string[]).includes(k)) problem(['known', i, k], `unknown key \`${k}\` (known: ${KEYS.join(', ')})`);
    const text = (k: string, required: boolean): string | undefined => {
      const v = e[k];
      if (v === undefined && !required) return undefined;
      if (typeof v !== 'string' || v.trim() === '') return problem(['known', i, k], required ? 'required, a non-empty string' : 'a non-empty string');
      return v;
    };
    // YAML reads an unquoted date as a Date: take it back as YYYY-MM-DD.
    const untilRaw = e.until instanceof Date ? e.until.toISOString().slice(0, 10) : e.until;
    if (untilRaw !== undefined && (typeof untilRaw !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(untilRaw) || Number.isNaN(Date.parse(untilRaw)))) problem(['known', i, 'until'], 'a date, YYYY-MM-DD');
    const causes = e.causes;
    if (causes !== undefined && (!Array.isArray(causes) || causes.length === 0 || causes.some((c) => typeof c !== 'string' || c === ''))) problem(['known', i, 'causes'], 'a list of causes (failure keys, as init-known writes them)');
    const passRate = e.pass_rate;
    if (passRate !== undefined && (typeof passRate !== 'number' || passRate <= 0 || passRate >= 1)) problem(['known', i, 'pass_rate'], 'a number between 0 and 1 (the flaky check\'s expected pass rate over --repeat N)');
    const model = text('model', false);
    const baseUrl = text('base_url', false);
    const link = text('link', false);
    return {
      check: text('check', true)!,
      ...(model ? { model } : {}),
      ...(baseUrl ? { baseUrl } : {}),
      reason: text('reason', true)!,
      ...(typeof untilRaw === 'string' ? { until: untilRaw } : {}),
      ...(link ? { link } : {}),
      ...(causes ? { causes: causes as string[] } : {}),
      ...(typeof passRate === 'number' ? { passRate } : {}),
      at: `${file}:${lineOf(['known', i]).line}`,
    };
  });
}

/** Entries naming no check of the catalogue (or a model the spec lacks): an input error naming each entry's place. */
export function checkKnownEntries(entries: readonly KnownEntry[], checks: readonly { id: string }[], models: readonly string[], command = 'run'): void {
  const ids = checks.map((c) => c.id);
  const bad = entries.filter((e) => {
    const matches = ids.some(globMatcher(e.check, true));
    return !matches || (e.model !== undefined && !models.includes(e.model));
  });
  if (bad.length === 0) return;
  throw new UsageError(`${command}: ${bad.map((e) => `${e.at}: \`${e.check}\`${e.model ? ` on ${e.model}` : ''} names no check of this run`).join('; ')}. Fix the id (svc-conformance list shows them), or remove the entry.`);
}
