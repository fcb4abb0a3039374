import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RENDERERS, renderMarkdownSummary } from '#harness/render/index.ts';
import { serializeRunSummary, type RunRecord, type RunSummary } from '#harness/results/index.ts';

export type ReportName = keyof typeof RENDERERS;

/** A cell's folder name for its base URL: host, port and path, safe on any file system. */
export function hostSlug(baseUrl: string): string {
  const u = new URL(baseUrl);
  return `${u.hostname}${u.port ? `_${u.port}` : ''}${u.pathname.replace(/\/+$/, '').replace(/[^A-Za-z0-9._-]+/g, '_')}`;
}

/**
 * The per-cell reports of one record under DIR/<host>/<model>/, one file per renderer of
 * render/index.ts (or those named); returns the path of the cell's report.json.
 */
export function writeCellReports(dir: string, record: RunRecord, names: readonly ReportName[] = Object.keys(RENDERERS) as ReportName[]): string {
  const cell = join(dir, hostSlug(record.target.baseUrl), record.model);
  mkdirSync(cell, { recursive: true });
  for (const name of names) writeFileSync(join(cell, RENDERERS[name].file), RENDERERS[name].render(record));
  return join(cell, RENDERERS.json.file);
}

/** summary.json and summary.md across the cells of a run (or of merged shards). */
export function writeSummary(dir: string, summary: RunSummary, records: readonly RunRecord[]): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'summary.json'), serializeRunSummary(summary));
  writeFileSync(join(dir, 'summary.md'), renderMarkdownSummary(summary, records));
}
