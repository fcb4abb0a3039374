import { mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { tempDirs } from '#harness/testing/tempDirs.ts';
import { outputDir, outputFile } from './outputs.ts';

const tmp = tempDirs('svc-outputs-');

describe('outputs are made ready, or refused, before a command does anything', () => {
  test('a missing directory is created, levels and all, and left empty', () => {
    const dir = join(tmp(), 'a', 'b', 'c');
    expect(outputDir('run', 'report-dir', dir)).toBe(dir);
    expect(readdirSync(dir)).toEqual([]);
  });

  test('a file for --json: its directory is made; an existing file is neither truncated nor removed; a missing one is not left behind', () => {
    const dir = tmp();
    const kept = join(dir, 'old.json');
    writeFileSync(kept, '{"kept":true}');
    expect(outputFile('run', 'json', kept)).toBe(kept);
    expect(readFileSync(kept, 'utf8')).toBe('{"kept":true}');
    const fresh = join(dir, 'new', 'all.json');
    expect(outputFile('run', 'json', fresh)).toBe(fresh);
    expect(readdirSync(join(dir, 'new'))).toEqual([]);
  });

  test('a path under a file: refused naming the command, the flag, the path and the file in the way', () => {
    const file = join(tmp(), 'plain');
    writeFileSync(file, '');
    expect(() => outputDir('run', 'report-dir', join(file, 'reports'))).toThrow(`run: --report-dir ${join(file, 'reports')}: ${file} is a file, not a directory`);
    expect(() => outputFile('openapi', 'out', join(file, 'x.json'))).toThrow(/^openapi: --out .*is a file, not a directory/);
  });

  test('--json naming a directory is refused', () => {
    const dir = tmp();
    expect(() => outputFile('run', 'json', dir)).toThrow(`run: --json ${dir}: ${dir} is a directory; --json names a file`);
  });

  // Both make Node's own mkdirSync(..., { recursive: true }) spin for ever: the parent answers EEXIST, the child ENOENT.
  test('a dangling symbolic link in the path is refused at once', () => {
    const dir = tmp();
    symlinkSync(join(dir, 'gone'), join(dir, 'dangling'));
    expect(() => outputDir('run', 'report-dir', join(dir, 'dangling', 'reports'))).toThrow(/cannot create the directory .*dangling \(EEXIST.*symbolic link to nothing\)/);
  });

  test.skipIf(!readdirSync('/').includes('proc'))('a directory under /proc is refused at once, with the reason', () => {
    expect(() => outputDir('run', 'report-dir', '/proc/svc-nope/reports')).toThrow(
      'run: --report-dir /proc/svc-nope/reports: cannot create the directory /proc/svc-nope (ENOENT: no such file or directory; /proc exists but takes no new directories)',
    );
  });

  test('an existing directory is used as it is', () => {
    const dir = tmp();
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'sub', 'keep'), 'x');
    outputDir('run', 'report-dir', join(dir, 'sub'));
    expect(readdirSync(join(dir, 'sub'))).toEqual(['keep']);
  });
});
