import { closeSync, lstatSync, mkdirSync, openSync, statSync, unlinkSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { UsageError } from '#harness/core/errors/index.ts';

/**
 * Where a command writes, made ready before it does anything else: a paid run must not die at its
 * end because --json names a directory that cannot exist. Each function creates what is missing,
 * proves it can write there, and returns the absolute path; anything else is a UsageError naming the
 * command, the flag, the path and the operating system's reason.
 */

/** A directory the command writes into (--report-dir, record --out, schemas --out). */
export function outputDir(command: string, flag: string, path: string): string {
  const dir = resolve(path);
  const refuse = (what: string) => new UsageError(`${command}: --${flag} ${path}: ${what}. Choose a directory you can write to.`);
  makeDir(dir, refuse);
  const probe = join(dir, `.svc-conformance-write-check-${process.pid}`);
  try {
    closeSync(openSync(probe, 'wx'));
    unlinkSync(probe);
  } catch (err) {
    throw refuse(`cannot write in ${dir} (${reason(err)})`);
  }
  return dir;
}

/** A file the command writes at its end (--json, openapi --out): its directory exists, the file can be written. */
export function outputFile(command: string, flag: string, path: string): string {
  const file = resolve(path);
  const refuse = (what: string) => new UsageError(`${command}: --${flag} ${path}: ${what}. Choose a file in a directory you can write to.`);
  makeDir(dirname(file), refuse);
  const existed = exists(file);
  if (existed?.isDirectory()) throw refuse(`${file} is a directory; --${flag} names a file`);
  try {
    // Append mode: proves the file can be opened for writing without truncating an existing one.
    closeSync(openSync(file, 'a'));
    if (!existed) unlinkSync(file);
  } catch (err) {
    throw refuse(`cannot write ${file} (${reason(err)})`);
  }
  return file;
}

/**
 * mkdir -p, one level at a time. Node's own recursive mkdir loops for ever, in C++ and deaf to
 * signals, when a parent exists but refuses the child with ENOENT (anything under /proc, a dangling
 * symlink): it takes ENOENT to mean "parent missing", makes the parent (EEXIST) and tries again. Here
 * each missing level is made once, so such an answer is final.
 */
function makeDir(dir: string, refuse: (what: string) => UsageError): void {
  const missing: string[] = [];
  let at = dir;
  let found = exists(at);
  while (!found && dirname(at) !== at) {
    missing.unshift(at);
    at = dirname(at);
    found = exists(at);
  }
  if (found && !found.isDirectory()) throw refuse(`${at} is a file, not a directory`);
  for (const level of missing) {
    try {
      mkdirSync(level);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST' && exists(level)?.isDirectory()) continue;
      const code = (err as NodeJS.ErrnoException).code;
      const parent = dirname(level);
      const hint =
        code === 'ENOENT' && exists(parent)?.isDirectory() ? `; ${parent} exists but takes no new directories`
        : code === 'EEXIST' && isLink(level) ? '; it is a symbolic link to nothing'
        : '';
      throw refuse(`cannot create the directory ${level} (${reason(err)}${hint})`);
    }
  }
}

function exists(path: string) {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/** "ENOENT: no such file or directory", without the syscall and path Node appends. */
function reason(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  return e.code ? e.message.replace(/,\s*\w+\s+'.*$/, '') : String(e.message ?? err);
}

/** What `run` and `record` write: --report-dir (default reports/), --json's file, record --out. */
export function runOutputs(command: string, given: { reportDir: string; json?: string | undefined; out?: string | undefined }): void {
  outputDir(command, 'report-dir', given.reportDir);
  if (given.json !== undefined) outputFile(command, 'json', given.json);
  if (given.out !== undefined) outputDir(command, 'out', given.out);
}
