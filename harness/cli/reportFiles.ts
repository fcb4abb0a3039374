import { mkdirSync, readdirSync, rmdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RENDERERS, renderIndexPage, renderMarkdownSummary } from '#harness/render/index.ts';
import { serializeRunSummary, targetKey, type RunRecord, type RunSummary } from '#harness/results/index.ts';

export type ReportName = keyof typeof RENDERERS;

/** A cell's folder name for its base URL: host, port and path, safe on any file system. */
export function hostSlug(baseUrl: string): string {
  const u = new URL(baseUrl);
  return `${u.hostname}${u.port ? `_${u.port}` : ''}${u.pathname.replace(/\/+$/, '').replace(/[^A-Za-z0-9._-]+/g, '_')}`;
}

/**
 * A cell's folder under the report directory: the embedded emulator and a replayed recording listen
 * on a new port each run, so theirs is named by what they are (`emulator`, `replay`) and a CI
 * artefact path stays the same from run to run; a live endpoint's by its host.
 */
export function cellFolder(target: Pick<RunRecord['target'], 'kind' | 'baseUrl'>): string {
  return target.kind === 'live' ? hostSlug(target.baseUrl) : targetKey(target);
}

/**
 * The per-cell reports of one record under DIR/<target>/<model>/, one file per renderer of
 * render/index.ts (or those named); returns the path of the cell's report.json.
 */
export function writeCellReports(dir: string, record: RunRecord, names: readonly ReportName[] = Object.keys(RENDERERS) as ReportName[]): string {
  const cell = join(dir, cellFolder(record.target), record.model);
  mkdirSync(cell, { recursive: true });
  for (const name of names) writeFileSync(join(cell, RENDERERS[name].file), RENDERERS[name].render(record));
  return join(cell, RENDERERS.json.file);
}

/** summary.json and summary.md across the cells of a run (or of merged shards). */
export function writeSummary(dir: string, summary: RunSummary, records: readonly RunRecord[]): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'summary.json'), serializeRunSummary(summary));
  writeFileSync(join(dir, 'summary.md'), renderMarkdownSummary(summary, records));
  writeFileSync(join(dir, 'index.html'), renderIndexPage(summary, records));
}

const isDir = (path: string) => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

/**
 * Removes a previous run's reports from DIR before a run writes its own, so nothing there looks
 * current that this run did not write: summary.json and summary.md, and each DIR/<target>/<model>/
 * report file (the files the renderers write, nothing else), with the folders they leave empty.
 */
export function clearReports(dir: string): void {
  if (!isDir(dir)) return;
  for (const f of ['summary.json', 'summary.md', 'index.html']) rmSync(join(dir, f), { force: true });
  const reportFiles = new Set(Object.values(RENDERERS).map((r) => r.file));
  for (const target of readdirSync(dir)) {
    const targetDir = join(dir, target);
    if (!isDir(targetDir)) continue;
    for (const model of readdirSync(targetDir)) {
      const cell = join(targetDir, model);
      if (!isDir(cell)) continue;
      for (const f of readdirSync(cell)) if (reportFiles.has(f)) rmSync(join(cell, f), { force: true });
      if (readdirSync(cell).length === 0) rmdirSync(cell);
    }
    if (readdirSync(targetDir).length === 0) rmdirSync(targetDir);
  }
}
