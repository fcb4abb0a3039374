import { mkdirSync, readdirSync, renameSync, rmdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { RENDERERS, SUMMARY_RENDERERS } from '#harness/render/index.ts';
import { targetKey, type RunRecord, type RunSummary } from '#harness/results/index.ts';

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
  for (const r of Object.values(SUMMARY_RENDERERS)) writeFileSync(join(dir, r.file), r.render(summary, records));
}

const isDir = (path: string) => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

/** Where a run writes its reports until they are complete: a hidden folder of the report directory, one per process. */
const STAGING = '.svc-conformance-next-';

/**
 * Removes a previous run's reports from DIR, so nothing there looks current that this run did not
 * write: summary.json, summary.md and index.html, and each DIR/<target>/<model>/ report file (the
 * files the renderers write, nothing else), with the folders they leave empty. `keep`: the paths
 * (relative to DIR) of the reports just swapped in, which stay.
 */
export function clearReports(dir: string, keep: ReadonlySet<string> = new Set()): void {
  if (!isDir(dir)) return;
  for (const { file } of Object.values(SUMMARY_RENDERERS)) if (!keep.has(file)) rmSync(join(dir, file), { force: true });
  const reportFiles = new Set(Object.values(RENDERERS).map((r) => r.file));
  for (const target of readdirSync(dir)) {
    const targetDir = join(dir, target);
    if (target.startsWith(STAGING) || !isDir(targetDir)) continue;
    for (const model of readdirSync(targetDir)) {
      const cell = join(targetDir, model);
      if (!isDir(cell)) continue;
      for (const f of readdirSync(cell)) if (reportFiles.has(f) && !keep.has(join(target, model, f))) rmSync(join(cell, f), { force: true });
      if (readdirSync(cell).length === 0) rmdirSync(cell);
    }
    if (readdirSync(targetDir).length === 0) rmdirSync(targetDir);
  }
}

/** A run's reports being written: `dir` takes them; `commit` swaps them in for the last ones; `discard` drops them. */
export interface StagedReports {
  dir: string;
  commit(): void;
  discard(): void;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * The reports of a run are written beside the last ones, in a hidden folder of DIR (so on the same
 * file system, and where the run has proved it can write: cli/outputs.ts), and swapped in only once
 * every one is written: a run that ran nothing, stopped on a usage error, or was killed leaves the
 * last reports as they were. DIR itself is never replaced: it holds files of the user's (reports/
 * of a clone holds the report schemas). The swap renames each new file over its old one, then
 * removes the old reports this run did not write (`clearReports`), so at no time is DIR without a
 * complete report of some run. A folder left by a process that died is removed by the next run.
 */
export function stageReports(reportDir: string): StagedReports {
  mkdirSync(reportDir, { recursive: true });
  for (const name of readdirSync(reportDir)) {
    const pid = name.startsWith(STAGING) ? Number(name.slice(STAGING.length)) : NaN;
    if (Number.isInteger(pid) && pid !== process.pid && !alive(pid)) rmSync(join(reportDir, name), { recursive: true, force: true });
  }
  const dir = join(reportDir, `${STAGING}${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir);
  const filesUnder = (at: string): string[] => readdirSync(at, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(at, e.name)) : [join(at, e.name)]));
  return {
    dir,
    commit() {
      const written = filesUnder(dir).map((f) => relative(dir, f));
      for (const f of written) {
        mkdirSync(dirname(join(reportDir, f)), { recursive: true });
        renameSync(join(dir, f), join(reportDir, f));
      }
      rmSync(dir, { recursive: true, force: true });
      clearReports(reportDir, new Set(written));
    },
    discard() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
