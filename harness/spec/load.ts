import { readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { Document, LineCounter } from 'yaml';
import { yaml } from './yaml.ts';
import { createAjv } from '#harness/core/createAjv.ts';
import { SpecInvalidError, UsageError, type SpecIssue } from '#harness/core/errors/index.ts';
import { locate, pointerToPath } from './locate.ts';
import { REQUIRED_TOP_LEVEL_KEYS, type Spec } from './model.ts';
import { checkSemantics } from './semantics.ts';
import { bundledSpecCache, markBundled, specDigest, type SpecCache } from './specCache.ts';

/** The spec shipped with the harness: <repo>/spec. */
export const DEFAULT_SPEC_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../spec');
export const INDEX_FILE = 'service.yaml';
const META_SCHEMA_FILE = 'meta-schema.json';

/** A loaded spec, plus where each top-level key came from (for locating later problems). */
export interface LoadedSpec {
  spec: Spec;
  dir: string;
  /** top-level key -> file name (relative to dir) that defines it */
  origins: Record<string, string>;
}

interface ParsedFile {
  name: string;
  display: string;
  doc: Document;
  lineCounter: LineCounter;
  data: Record<string, unknown>;
}

/** The meta-schema of a spec directory, compiled once per directory. */
const metaValidators = new Map<string, ValidateFunction>();
function metaValidator(dir: string): ValidateFunction {
  let compiled = metaValidators.get(dir);
  if (!compiled) {
    compiled = createAjv().compile(JSON.parse(readFileSync(join(dir, META_SCHEMA_FILE), 'utf8')) as object);
    metaValidators.set(dir, compiled);
  }
  return compiled;
}

const cache = new Map<string, LoadedSpec>();

/**
 * Loads every file the index names, checks each against spec/meta-schema.json and then the
 * cross-references between files. Any problem throws SpecInvalidError listing each problem with its
 * file, line, column and path; nothing is half-loaded. A successful load is cached per directory for
 * the life of the process (spec files are not expected to change under a running harness).
 */
export function loadSpec(dir: string = DEFAULT_SPEC_DIR): LoadedSpec {
  const key = resolve(dir);
  const hit = cache.get(key);
  if (hit) return hit;
  checkSpecDir(dir, key);
  const loaded = loadUncached(key);
  cache.set(key, loaded);
  return loaded;
}

/** A spec directory that is missing, or is a file, said as such: its files cannot be listed. */
function checkSpecDir(given: string, dir: string): void {
  let isDir: boolean;
  try {
    isDir = statSync(dir).isDirectory();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(`--spec ${given}: ${code === 'ENOENT' ? 'no such directory' : `cannot be read (${code ?? (err as Error).message})`}. --spec names a directory holding ${INDEX_FILE}.`);
  }
  if (!isDir) throw new UsageError(`--spec ${given}: not a directory. --spec names a directory holding ${INDEX_FILE}, not one of its files.`);
}

function display(dir: string, name: string): string {
  const rel = relative(process.cwd(), join(dir, name));
  return rel.startsWith('..') ? join(dir, name) : rel;
}

/** Where the index lists a file, so that a file that cannot be read is reported at that line. */
interface ListedAt {
  index: ParsedFile;
  position: number;
}

function parseFile(dir: string, name: string, issues: SpecIssue[], listedAt?: ListedAt): ParsedFile | undefined {
  const shown = display(dir, name);
  let text: string;
  try {
    text = readFileSync(join(dir, name), 'utf8');
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'file not found' : (err as Error).message;
    if (listedAt) {
      const pos = locate(listedAt.index.doc, listedAt.index.lineCounter, ['files', listedAt.position]);
      issues.push({ file: listedAt.index.display, ...pos, path: `/files/${listedAt.position}`, message: `lists \`${name}\`, which cannot be read (${reason}) in ${dir}` });
    } else {
      issues.push({ file: shown, line: 0, column: 0, path: '', message: `cannot read: ${reason}` });
    }
    return undefined;
  }
  const { LineCounter, parseDocument } = yaml();
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    for (const e of doc.errors) {
      const pos = lineCounter.linePos(e.pos[0]);
      issues.push({ file: shown, line: pos.line, column: pos.col, path: '', message: `YAML syntax: ${e.message.split('\n')[0]}` });
    }
    return undefined;
  }
  const data: unknown = doc.toJS({ maxAliasCount: 100 });
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    issues.push({ file: shown, line: 1, column: 1, path: '', message: 'a spec file must hold a mapping of keys' });
    return undefined;
  }
  return { name, display: shown, doc, lineCounter, data: data as Record<string, unknown> };
}

function loadUncached(dir: string): LoadedSpec {
  return fromCacheOrFiles(dir, bundledSpecCache());
}

/** The cache when the directory's files still hash to its digest; else (a stale or missing cache) the files. */
export function fromCacheOrFiles(dir: string, cache: SpecCache | undefined): LoadedSpec {
  if (cache !== undefined && cache.digest === specDigest(dir)) return { spec: markBundled(cache.spec, cache.digest), dir, origins: cache.origins };
  return loadFromFiles(dir);
}

/** Reads, validates and merges the spec's files: what a spec cache is made from. */
export function loadFromFiles(dir: string): LoadedSpec {
  const issues: SpecIssue[] = [];
  const index = parseFile(dir, INDEX_FILE, issues);
  if (!index) throw new SpecInvalidError(issues);
  const validate = metaValidator(dir);
  const files: ParsedFile[] = [index];
  const names = Array.isArray(index.data.files) ? index.data.files.filter((f): f is string => typeof f === 'string') : [];
  names.forEach((name, position) => {
    const parsed = parseFile(dir, name, issues, { index, position });
    if (parsed) files.push(parsed);
  });
  // A file that did not parse leaves its keys undefined; saying so once per key is noise.
  const unreadable = files.length < names.length + 1;

  const merged: Record<string, unknown> = {};
  const origins: Record<string, string> = {};
  for (const file of files) {
    if (!validate(file.data)) issues.push(...metaIssues(file, validate.errors ?? []));
    for (const [key, value] of Object.entries(file.data)) {
      const first = origins[key];
      if (first !== undefined) {
        const pos = locate(file.doc, file.lineCounter, [key]);
        issues.push({ file: file.display, ...pos, path: `/${key}`, message: `\`${key}\` is already defined in ${first}; define each top-level key in one file` });
        continue;
      }
      merged[key] = value;
      origins[key] = file.name;
    }
  }
  for (const key of REQUIRED_TOP_LEVEL_KEYS) {
    if (!(key in merged) && !unreadable) {
      issues.push({ file: index.display, line: 0, column: 0, path: `/${key}`, message: `no spec file defines \`${key}\`; add it to one of the files listed in ${INDEX_FILE}` });
    }
  }
  if (issues.length > 0) throw new SpecInvalidError(issues);

  const spec = merged as unknown as Spec;
  const byName = new Map(files.map((f) => [f.name, f]));
  for (const problem of checkSemantics(spec)) {
    const top = problem.path[0];
    const file = byName.get(origins[String(top)] ?? INDEX_FILE) ?? index;
    const pos = locate(file.doc, file.lineCounter, problem.path);
    issues.push({ file: file.display, ...pos, path: '/' + problem.path.join('/'), message: problem.message });
  }
  if (issues.length > 0) throw new SpecInvalidError(issues);
  return { spec, dir, origins };
}

/**
 * ajv reports every failed branch of a oneOf; a person wants one line per place. Errors are grouped
 * by place, the combinator errors dropped when a branch says more, and the rest joined.
 */
function metaIssues(file: ParsedFile, errors: ErrorObject[]): SpecIssue[] {
  const groups = new Map<string, { path: (string | number)[]; key?: string; messages: Set<string> }>();
  const combinators = new Set(['oneOf', 'anyOf', 'if']);
  const specific = errors.filter((e) => !combinators.has(e.keyword));
  const chosen = specific.length > 0 ? specific : errors;
  for (const e of chosen) {
    const path = pointerToPath(e.instancePath);
    let key: string | undefined;
    let message = e.message ?? e.keyword;
    if (e.keyword === 'additionalProperties') {
      key = String((e.params as { additionalProperty: string }).additionalProperty);
      message = `unknown key \`${key}\``;
    } else if (e.keyword === 'required') {
      message = `missing required key \`${(e.params as { missingProperty: string }).missingProperty}\``;
    } else if (e.keyword === 'enum') {
      message = `must be one of ${JSON.stringify((e.params as { allowedValues: unknown[] }).allowedValues)}`;
    } else if (e.keyword === 'const') {
      message = `must be ${JSON.stringify((e.params as { allowedValue: unknown }).allowedValue)}`;
    } else if (e.keyword === 'not') {
      message = 'combines keys that exclude each other (ref with type or fields, one_of with type or ref, status with status_any_of...)';
    }
    const id = `${e.instancePath}|${key ?? ''}`;
    const group = groups.get(id) ?? { path: key === undefined ? path : [...path, key], ...(key === undefined ? {} : { key }), messages: new Set<string>() };
    group.messages.add(message);
    groups.set(id, group);
  }
  return [...groups.values()].map((g) => {
    const parentPath = g.key === undefined ? g.path : g.path.slice(0, -1);
    const pos = locate(file.doc, file.lineCounter, parentPath, g.key);
    return { file: file.display, ...pos, path: g.path.length ? '/' + g.path.join('/') : '', message: [...g.messages].join('; or ') };
  });
}
