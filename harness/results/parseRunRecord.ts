import type { RunRecord } from './runRecord.ts';
import { ReportInvalidError } from './ReportInvalidError.ts';
import { summarize } from './summarize.ts';
import { isRecord as isObject } from '#harness/core/isRecord.ts';

/**
 * The shape checks readRunRecord makes: enough to say clearly that a file is not a run record, and
 * where. reports/report.schema.json is the full description; a test keeps the two in agreement on
 * the cases below.
 */
type Problems = string[];

const VERDICTS = ['pass', 'fail', 'skip', 'unsupported', 'error'] as const;
const SEVERITIES = ['must', 'should', 'advisory'] as const;

function typeName(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
}

function expectObject(p: Problems, at: string, v: unknown): v is Record<string, unknown> {
  if (isObject(v)) return true;
  p.push(`${at || '/'}: must be an object, found ${typeName(v)}`);
  return false;
}

function field(p: Problems, at: string, obj: Record<string, unknown>, key: string, kind: 'string' | 'number' | 'boolean' | 'integer', optional = false): void {
  const v = obj[key];
  if (v === undefined) {
    if (!optional) p.push(`${at || '/'}: missing ${key}`);
    return;
  }
  const ok = kind === 'integer' ? Number.isInteger(v) && (v as number) >= 0 : typeof v === kind && (kind !== 'number' || (v as number) >= 0);
  if (!ok) p.push(`${at}/${key}: must be ${kind === 'integer' ? 'a non-negative integer' : kind === 'number' ? 'a non-negative number' : `a ${kind}`}, found ${JSON.stringify(v)}`);
}

function oneOf(p: Problems, at: string, obj: Record<string, unknown>, key: string, allowed: readonly unknown[]): void {
  const v = obj[key];
  if (v === undefined) p.push(`${at || '/'}: missing ${key}`);
  else if (!allowed.includes(v)) p.push(`${at}/${key}: must be one of ${allowed.map((a) => JSON.stringify(a)).join(', ')}, found ${JSON.stringify(v)}`);
}

function nested(p: Problems, at: string, obj: Record<string, unknown>, key: string, check: (at: string, o: Record<string, unknown>) => void): void {
  const v = obj[key];
  if (v === undefined) p.push(`${at || '/'}: missing ${key}`);
  else if (expectObject(p, `${at}/${key}`, v)) check(`${at}/${key}`, v);
}

function checkSummary(p: Problems, at: string, s: Record<string, unknown>): void {
  for (const k of ['total', ...VERDICTS, 'mustFailures', 'shouldFailures', 'advisoryFailures']) field(p, at, s, k, 'integer');
}

function checkResult(p: Problems, at: string, r: Record<string, unknown>): void {
  for (const k of ['checkId', 'title', 'area', 'model']) field(p, at, r, k, 'string');
  oneOf(p, at, r, 'verdict', VERDICTS);
  oneOf(p, at, r, 'severity', SEVERITIES);
  field(p, at, r, 'durationMs', 'number');
  field(p, at, r, 'reason', 'string', true);
  if (!Array.isArray(r['specRefs']) || !r['specRefs'].every((s) => typeof s === 'string')) p.push(`${at}/specRefs: must be an array of strings`);
  const failures = r['failures'];
  if (failures !== undefined && !Array.isArray(failures)) p.push(`${at}/failures: must be an array`);
  if (Array.isArray(failures)) failures.forEach((f, i) => expectObject(p, `${at}/failures/${i}`, f) && field(p, `${at}/failures/${i}`, f, 'message', 'string'));
  // Results are keyed on the verdict: a failure carries what failed, the others say why.
  if (!(VERDICTS as readonly unknown[]).includes(r['verdict'])) return;
  if (r['verdict'] === 'fail' && (!Array.isArray(failures) || failures.length === 0)) p.push(`${at}: a failing check must list its failures`);
  if (r['verdict'] !== 'fail' && Array.isArray(failures) && failures.length > 0) p.push(`${at}: only a failing check lists failures`);
  if ((r['verdict'] === 'skip' || r['verdict'] === 'unsupported' || r['verdict'] === 'error') && typeof r['reason'] !== 'string') {
    p.push(`${at}: a check with verdict ${String(r['verdict'])} must give its reason`);
  }
}

/** Problems with a value that should be a run record; empty when it is one. */
export function runRecordProblems(value: unknown): string[] {
  const p: Problems = [];
  if (!expectObject(p, '', value)) return p;
  if ('cells' in value && 'totals' in value) return ['/: this is a run summary (summary.json), not the record of one cell'];
  if (value['schemaVersion'] !== 1) {
    p.push(`/schemaVersion: must be 1, found ${JSON.stringify(value['schemaVersion'])}`);
    return p; // another version or another kind of file: the rest would only be noise
  }
  nested(p, '', value, 'harness', (at, h) => {
    oneOf(p, at, h, 'name', ['svc-conformance']);
    field(p, at, h, 'version', 'string');
  });
  nested(p, '', value, 'spec', (at, s) => ['revision', 'updated'].forEach((k) => field(p, at, s, k, 'string')));
  nested(p, '', value, 'target', (at, t) => {
    oneOf(p, at, t, 'kind', ['emulator', 'fixtures', 'live']);
    ['baseUrl', 'messagesBaseUrl'].forEach((k) => field(p, at, t, k, 'string'));
  });
  for (const k of ['model', 'targetModel', 'startedAt', 'finishedAt']) field(p, '', value, k, 'string');
  nested(p, '', value, 'referenceTime', (at, t) => {
    field(p, at, t, 'value', 'string');
    oneOf(p, at, t, 'source', ['flag', 'server-date', 'local-clock', 'fixture']);
  });
  nested(p, '', value, 'options', (at, o) => {
    field(p, at, o, 'strict', 'boolean');
    field(p, at, o, 'only', 'string', true);
    field(p, at, o, 'shard', 'string', true);
    field(p, at, o, 'runs', 'integer');
    field(p, at, o, 'seed', 'integer');
  });
  field(p, '', value, 'interrupted', 'boolean');
  nested(p, '', value, 'summary', (at, s) => checkSummary(p, at, s));
  nested(p, '', value, 'usage', (at, u) => {
    for (const k of ['promptTokens', 'completionTokens', 'cacheHitTokens']) field(p, at, u, k, 'integer');
    if (typeof u['costUsd'] !== 'string' || !/^\d+(\.\d+)?$/.test(u['costUsd'])) p.push(`${at}/costUsd: must be a decimal string, found ${JSON.stringify(u['costUsd'])}`);
  });
  const results = value['results'];
  if (!Array.isArray(results)) p.push(results === undefined ? '/: missing results' : '/results: must be an array');
  else results.forEach((r, i) => expectObject(p, `/results/${i}`, r) && checkResult(p, `/results/${i}`, r));
  if (p.length === 0) {
    // Shape is right; now the counts: a hand-edited summary that disagrees with the results is caught.
    const record = value as unknown as RunRecord;
    const expected = summarize(record.results);
    for (const [k, n] of Object.entries(expected)) {
      const found = (record.summary as Record<string, number>)[k];
      if (found !== n) p.push(`/summary/${k}: is ${String(found)}, but the results count ${n}`);
    }
  }
  return p;
}

/** Parses the text of a run record file; throws ReportInvalidError naming `file` when it is not one. */
export function parseRunRecord(text: string, file: string): RunRecord {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new ReportInvalidError(file, [`not JSON: ${(cause as Error).message}`], { cause });
  }
  const problems = runRecordProblems(value);
  if (problems.length > 0) throw new ReportInvalidError(file, problems);
  return value as RunRecord;
}
