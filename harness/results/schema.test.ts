import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { createAjv } from '#harness/core/createAjv.ts';
import { sampleRecord, sampleRepeatedRecord } from '#harness/testing/sampleRecord.ts';
import { parseRunRecord, runRecordProblems } from './parseRunRecord.ts';
import { summaryOf } from './summaryOf.ts';
import { judgingOf, UNJUDGED_KINDS } from './judging.ts';
import type { CheckResult } from '#harness/core/outcome.ts';
import type { RunRecord } from './runRecord.ts';
import { RUN_RECORD_LAYOUT, RUN_SUMMARY_LAYOUT, serializeRunRecord, type Layout } from './serialize.ts';

const reportSchema = JSON.parse(readFileSync(new URL('../../reports/report.schema.json', import.meta.url), 'utf8')) as Record<string, unknown>;
const summarySchema = JSON.parse(readFileSync(new URL('../../reports/summary.schema.json', import.meta.url), 'utf8')) as Record<string, unknown>;

const ajv = createAjv();
const validateReport = ajv.compile(reportSchema);
const validateSummary = ajv.compile(summarySchema);

function errorsOf(validate: typeof validateReport, value: unknown): string[] {
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
}

describe('reports/report.schema.json', () => {
  test('is draft 2020-12 and accepts the sample record (every verdict and severity, evidence, SSE events)', () => {
    expect(reportSchema['$schema']).toBe('https://json-schema.org/draft/2020-12/schema');
    const record = sampleRecord();
    expect(new Set(record.results.map((r) => r.verdict))).toEqual(new Set(['pass', 'fail', 'skip', 'unsupported', 'error']));
    expect(new Set(record.results.map((r) => r.severity))).toEqual(new Set(['must', 'should', 'advisory']));
    expect(errorsOf(validateReport, record)).toEqual([]);
    // through JSON too, as it is read back from disk
    expect(errorsOf(validateReport, JSON.parse(JSON.stringify(record)))).toEqual([]);
  });

  test('rejects a broken record: summary missing, verdict "maybe"', () => {
    const broken = sampleRecord() as unknown as Record<string, unknown> & { results: Record<string, unknown>[] };
    delete broken['summary'];
    broken.results[0]!['verdict'] = 'maybe';
    const errors = errorsOf(validateReport, broken);
    expect(errors).toContain("/ must have required property 'summary'");
    expect(errors).toContain('/results/0/verdict must be equal to one of the allowed values');
    // and the reader's own shape check agrees
    expect(runRecordProblems(broken)).toEqual(
      expect.arrayContaining(['/: missing summary', '/results/0/verdict: must be one of "pass", "fail", "flaky", "skip", "unsupported", "error", found "maybe"']),
    );
  });

  test('is closed where the shape is: an unknown field is rejected at every level, headers and bodies stay open', () => {
    const withExtra = (mutate: (r: ReturnType<typeof sampleRecord>) => void) => {
      const r = sampleRecord();
      mutate(r);
      return errorsOf(validateReport, r);
    };
    expect(withExtra((r) => Object.assign(r, { extra: 1 }))).toContain('/ must NOT have additional properties');
    expect(withExtra((r) => Object.assign(r.options, { verbose: true }))).toContain('/options must NOT have additional properties');
    expect(withExtra((r) => Object.assign(r.results[1]!.failures![0]!.evidence!.response!, { bytes: 3 }))).toContain(
      '/results/1/failures/0/evidence/response must NOT have additional properties',
    );
    expect(withExtra((r) => Object.assign(r.results[1]!.failures![0]!.evidence!.response!.headers, { 'x-new': 'ok' }))).toEqual([]);
  });

  test('results are keyed on the verdict: fail needs failures, skip/unsupported/error need a reason, pass has no failures', () => {
    const cases: [string, (r: ReturnType<typeof sampleRecord>) => void, string][] = [
      ['fail without failures', (r) => delete r.results[1]!.failures, '/results/1'],
      ['skip without reason', (r) => delete r.results[6]!.reason, '/results/6'],
      ['error without reason', (r) => delete r.results[8]!.reason, '/results/8'],
      ['pass with failures', (r) => (r.results[0]!.failures = [{ message: 'x' }]), '/results/0'],
    ];
    for (const [name, mutate, at] of cases) {
      const r = sampleRecord();
      mutate(r);
      expect(validateReport(r), name).toBe(false);
      expect(runRecordProblems(r).some((p) => p.startsWith(at)), name).toBe(true);
    }
  });

  test('a repeated run: flaky results with their repeat figures, options.repeat and allowFlaky, are accepted', () => {
    const r = sampleRepeatedRecord(true);
    expect(errorsOf(validateReport, JSON.parse(JSON.stringify(r)))).toEqual([]);
    expect(runRecordProblems(r)).toEqual([]);
  });

  test('flaky is keyed too: it needs failures, a reason and its repeat figures; pass@k is a number from 0 to 1 per k', () => {
    const flakyAt = sampleRepeatedRecord().results.length - 1;
    const cases: [string, (r: Record<string, unknown>) => void][] = [
      ['flaky without failures', (r) => delete r['failures']],
      ['flaky without repeat', (r) => delete r['repeat']],
      ['flaky without reason', (r) => delete r['reason']],
      ['pass@k above 1', (r) => ((r['repeat'] as { passAtK: Record<string, number> }).passAtK['1'] = 1.5)],
      ['pass^k keyed by a word', (r) => ((r['repeat'] as { passHatK: Record<string, number> }).passHatK['two'] = 0.5)],
    ];
    for (const [name, mutate] of cases) {
      const r = sampleRepeatedRecord();
      mutate(r.results[flakyAt] as unknown as Record<string, unknown>);
      expect(validateReport(r), name).toBe(false);
      expect(runRecordProblems(r).some((p) => p.startsWith(`/results/${flakyAt}`)), name).toBe(true);
    }
  });

  test('a report written before --repeat (no flaky count in its summary) is still read, its flaky count 0', () => {
    const old = sampleRecord() as unknown as { summary: Record<string, number> };
    delete old.summary['flaky'];
    expect(errorsOf(validateReport, old)).toEqual([]);
    expect(parseRunRecord(JSON.stringify(old), 'old.json').summary.flaky).toBe(0);
  });

  test('traffic is optional: a record with it and one without (written before it was recorded) are read; a broken one is not', () => {
    const traffic = { requests: 236, retries: 2, concurrency: { initial: 4, max: 16, adaptive: true, reached: 16, final: 16, decreases: 0 } };
    const withTraffic = { ...sampleRecord(), traffic };
    expect(errorsOf(validateReport, JSON.parse(JSON.stringify(withTraffic)))).toEqual([]);
    expect(parseRunRecord(serializeRunRecord(withTraffic), 'new.json').traffic).toEqual(traffic);
    expect(parseRunRecord(serializeRunRecord(sampleRecord()), 'old.json')).not.toHaveProperty('traffic');
    const broken = { ...sampleRecord(), traffic: { ...traffic, concurrency: { ...traffic.concurrency, limit: 16 } } };
    expect(errorsOf(validateReport, broken)).toContain('/traffic/concurrency must NOT have additional properties');
    expect(runRecordProblems({ ...sampleRecord(), traffic: { requests: -1, retries: 0, concurrency: traffic.concurrency } }).some((p) => p.startsWith('/traffic/requests'))).toBe(true);
    // laid out in its place: after the run's figures, before the results
    expect(Object.keys(JSON.parse(serializeRunRecord(withTraffic)) as object).filter((k) => ['usage', 'traffic', 'results'].includes(k))).toEqual(['usage', 'traffic', 'results']);
  });

  test('judging is optional: a record with it (hand-offs among its reasons) and one written before it are read; a broken one is not', () => {
    const withJudging = withHandedSkips(sampleRecord());
    expect(withJudging.judging!.reasons[0]).toEqual({ kind: 'inconclusive', count: 2, reason: 'the answers carried no message', handedTo: 'schema.chat-completion.matches-schema' });
    expect(errorsOf(validateReport, JSON.parse(serializeRunRecord(withJudging)))).toEqual([]);
    expect(parseRunRecord(serializeRunRecord(withJudging), 'new.json').judging).toEqual(withJudging.judging);
    expect(parseRunRecord(serializeRunRecord(sampleRecord()), 'old.json')).not.toHaveProperty('judging');
    const broken = (mutate: (j: Record<string, unknown>) => void) => {
      const r = withHandedSkips(sampleRecord());
      mutate(r.judging as unknown as Record<string, unknown>);
      return errorsOf(validateReport, JSON.parse(JSON.stringify(r)));
    };
    expect(broken((j) => (j['notJudged'] = { maybe: 1 }))).toContain('/judging/notJudged must be equal to one of the allowed values');
    expect(broken((j) => (j['reasons'] = [{ kind: 'inconclusive', count: 0, reason: 'x' }]))).toContain('/judging/reasons/0/count must be >= 1');
    expect(broken((j) => (j['reasons'] = Array.from({ length: 4 }, () => ({ kind: 'inconclusive', count: 1, reason: 'x' }))))).toContain('/judging/reasons must NOT have more than 3 items');
    // laid out in its place: after the score and coverage, before the summary
    expect(Object.keys(JSON.parse(serializeRunRecord(withJudging)) as object).filter((k) => ['coverage', 'judging', 'summary'].includes(k))).toEqual(['judging', 'summary']);
  });

  test('every key the schema knows is laid out by the serializer, in step', () => {
    const props = (schema: unknown): string[] => Object.keys((schema as { properties: object }).properties);
    const keys = (layout: Layout) => (layout.kind === 'object' ? [...layout.keys] : []);
    const defs = reportSchema['$defs'] as Record<string, unknown>;
    expect(keys(RUN_RECORD_LAYOUT).sort()).toEqual(props(reportSchema).sort());
    const resultLayout = RUN_RECORD_LAYOUT.kind === 'object' ? RUN_RECORD_LAYOUT.fields?.['results'] : undefined;
    expect(resultLayout?.kind === 'array' ? keys(resultLayout.of).sort() : []).toEqual(props(defs['checkResult']).sort());
    expect(keys(RUN_SUMMARY_LAYOUT).sort()).toEqual(props(summarySchema).sort());
    // judging, in report.json and in each cell of summary.json: its keys, its reasons' and its kinds
    const judging = RUN_RECORD_LAYOUT.kind === 'object' ? RUN_RECORD_LAYOUT.fields?.['judging'] : undefined;
    const judgingDef = defs['judging'] as { properties: Record<string, unknown> };
    expect(keys(judging!).sort()).toEqual(props(judgingDef).sort());
    const reasons = judging?.kind === 'object' ? judging.fields?.['reasons'] : undefined;
    expect(reasons?.kind === 'array' ? keys(reasons.of).sort() : []).toEqual(props((judgingDef.properties['reasons'] as { items: unknown }).items).sort());
    const notJudged = judging?.kind === 'object' ? judging.fields?.['notJudged'] : undefined;
    expect(keys(notJudged!)).toEqual([...UNJUDGED_KINDS]);
    expect((judgingDef.properties['notJudged'] as { propertyNames: { enum: string[] } }).propertyNames.enum).toEqual([...UNJUDGED_KINDS]);
    const cells = RUN_SUMMARY_LAYOUT.kind === 'object' ? RUN_SUMMARY_LAYOUT.fields?.['cells'] : undefined;
    expect(cells?.kind === 'array' && cells.of.kind === 'object' ? cells.of.fields?.['judging'] : undefined).toEqual(judging);
  });
});

describe('reports/summary.schema.json', () => {
  test('accepts a run summary; its summary and usage are the same definitions as the report schema', () => {
    const s = summaryOf([sampleRecord()], ['reports/127.0.0.1_43817/svc-v4-flash/report.json']);
    expect(errorsOf(validateSummary, s)).toEqual([]);
    const defs = (schema: Record<string, unknown>) => schema['$defs'] as Record<string, unknown>;
    expect(defs(summarySchema)['summary']).toEqual(defs(reportSchema)['summary']);
    expect(defs(summarySchema)['usage']).toEqual(defs(reportSchema)['usage']);
    expect(defs(summarySchema)['traffic']).toEqual(defs(reportSchema)['traffic']);
  });

  test('a cell carries its target\'s traffic when its record has it, and is valid without', () => {
    const traffic = { requests: 236, retries: 2, concurrency: { initial: 4, max: 4, adaptive: false, reached: 4, final: 4, decreases: 0 } };
    const s = summaryOf([{ ...sampleRecord(), traffic }, sampleRecord()], ['a/report.json', 'b/report.json']);
    expect(s.cells.map((c) => c.traffic)).toEqual([traffic, undefined]);
    expect(errorsOf(validateSummary, JSON.parse(JSON.stringify(s)))).toEqual([]);
  });

  test('each cell carries its judging, as the gate counted it, with the same definition as report.json\'s', () => {
    const handed = withHandedSkips(sampleRecord());
    const s = summaryOf([handed, { ...sampleRecord(), model: 'svc-v4-pro' }], ['a/report.json', 'b/report.json']);
    expect(s.cells.map((c) => c.judging)).toEqual([handed.judging, judgingOf(sampleRecord().results)]);
    expect(errorsOf(validateSummary, JSON.parse(JSON.stringify(s)))).toEqual([]);
    const defs = (schema: Record<string, unknown>) => schema['$defs'] as Record<string, unknown>;
    expect(defs(summarySchema)['judging']).toEqual(defs(reportSchema)['judging']);
    // a summary written before it is still valid
    const old = JSON.parse(JSON.stringify(s)) as { cells: Record<string, unknown>[] };
    for (const c of old.cells) delete c['judging'];
    expect(errorsOf(validateSummary, old)).toEqual([]);
  });

  test('rejects an exit code of 2 and a cell without its report', () => {
    const s = summaryOf([sampleRecord()], ['r.json']) as unknown as { exitCode: number; cells: Record<string, unknown>[] };
    s.exitCode = 2;
    delete s.cells[0]!['report'];
    const errors = errorsOf(validateSummary, s);
    expect(errors).toContain('/exitCode must be equal to one of the allowed values');
    expect(errors).toContain("/cells/0 must have required property 'report'");
  });
});

/** The record with two must-checks skipped inconclusive, handed to the schema check, and its judging. */
function withHandedSkips(record: RunRecord): RunRecord {
  const handed = (checkId: string): CheckResult => ({
    checkId,
    title: checkId,
    area: 'rule',
    severity: 'must',
    specRefs: [],
    model: record.model,
    verdict: 'skip',
    skipKind: 'inconclusive',
    reason: 'inconclusive: the completion carries no message; schema.chat-completion.matches-schema fails on it: one defect, reported there',
    handedTo: [{ check: 'schema.chat-completion.matches-schema', defect: 'the answers carried no message' }],
    durationMs: 1,
  });
  const results = [...record.results, handed('rule.a.judges'), handed('rule.b.judges')];
  return { ...record, results, summary: { ...record.summary, total: record.summary.total + 2, skip: record.summary.skip + 2 }, judging: judgingOf(results) };
}
