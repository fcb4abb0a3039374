import type { CheckResult } from '#harness/core/outcome.ts';
import { scoreOf } from './score.ts';
import type { RunRecord } from './runRecord.ts';
import { MergeConflictError } from './MergeConflictError.ts';
import { summarize } from './summarize.ts';
import { sumUsage } from './usage.ts';
import { sumTraffic } from './traffic.ts';
import { causesOf } from './causes.ts';
import { judgingOf } from './judging.ts';
import { targetKey } from './baseline.ts';
import { mergeLoadFigures } from './loadFigures.ts';

/**
 * The messages base as shards of one cell agree on it: a live target's URL as given; the embedded
 * emulator's and a replay's relative to their base URL (each shard listens on its own random port).
 */
function messagesBase(r: RunRecord): string {
  const { kind, baseUrl, messagesBaseUrl } = r.target;
  if (kind === 'live' || !messagesBaseUrl.startsWith(baseUrl)) return messagesBaseUrl;
  return `{base_url}${messagesBaseUrl.slice(baseUrl.length)}`;
}

/**
 * What every shard of one cell must agree on: they ran the same harness, spec and options (the run
 * options a record carries whose shards must agree, as cli/runOptions.ts declares them: a test
 * keeps the two in step).
 */
export const MUST_AGREE: readonly [string, (r: RunRecord) => unknown][] = [
  ['harness.version', (r) => r.harness.version],
  ['spec.revision', (r) => r.spec.revision],
  ['spec.updated', (r) => r.spec.updated],
  ['target.kind', (r) => r.target.kind],
  ['target.messagesBaseUrl', messagesBase],
  ['targetModel', (r) => r.targetModel],
  ['referenceTime.source', (r) => r.referenceTime.source],
  ['options.strict', (r) => r.options.strict],
  ['options.only', (r) => r.options.only],
  ['options.skip', (r) => r.options.skip],
  ['options.baseline', (r) => r.options.baseline],
  ['options.runs', (r) => r.options.runs],
  ['options.coverage', (r) => r.options.coverage],
  ['options.load', (r) => r.options.load],
  ['options.seed', (r) => r.options.seed],
  ['options.repeat', (r) => r.options.repeat],
  ['options.allowFlaky', (r) => r.options.allowFlaky],
  ['options.clients', (r) => r.options.clients],
  ['options.clientsGate', (r) => r.options.clientsGate],
  ['options.without', (r) => r.options.without],
];

function shardName(record: RunRecord, index: number): string {
  return record.options.shard === undefined ? `record #${index + 1}` : `shard ${record.options.shard}`;
}

function mergeCell(group: readonly { record: RunRecord; index: number }[]): RunRecord {
  const first = group[0]!.record;
  const where = (problem: string) => new MergeConflictError(targetKey(first.target), first.model, problem);

  for (const [name, get] of MUST_AGREE) {
    const values = [...new Set(group.map(({ record }) => JSON.stringify(get(record)) ?? 'undefined'))];
    if (values.length > 1) throw where(`the shards disagree on ${name} (${values.join(' vs ')})`);
  }

  const seen = new Map<string, string>();
  const results: CheckResult[] = [];
  for (const { record, index } of group) {
    for (const r of record.results) {
      const key = JSON.stringify([r.checkId, r.model]);
      const earlier = seen.get(key);
      const here = shardName(record, index);
      if (earlier !== undefined) throw where(`check ${r.checkId} (model ${r.model}) appears twice, in ${earlier} and in ${here}`);
      seen.set(key, here);
      results.push(r);
    }
  }
  if (group.length === 1) return { ...first, summary: summarize(results), causes: causesOf(results), judging: judgingOf(results) };

  const byStart = [...group].sort((a, b) => Date.parse(a.record.startedAt) - Date.parse(b.record.startedAt));
  const earliest = byStart[0]!.record;
  const finishedAt = group.map(({ record }) => record.finishedAt).reduce((a, b) => (Date.parse(b) > Date.parse(a) ? b : a));
  const shards = [...new Set(group.flatMap(({ record }) => (record.options.shard === undefined ? [] : [record.options.shard])))];
  const { shard: _dropped, ...options } = earliest.options;
  // SIGTERM if any shard was terminated: the merged exit code (143) is the one a terminated shard gave.
  const signals = group.map(({ record }) => record.interruptedBy);
  const interruptedBy = signals.includes('SIGTERM') ? 'SIGTERM' : signals.includes('SIGINT') ? 'SIGINT' : signals.includes('ceiling') ? 'ceiling' : undefined;
  const endedEarly = group.find(({ record }) => record.endedEarly)?.record.endedEarly;
  // One target, one base URL: a shard that saw the mistake says it for the merged cell (its checks are that shard's).
  const wrongBase = group.find(({ record }) => record.wrongBase)?.record.wrongBase;
  // Each shard ran its own transport: requests and retries add up. Concurrency keeps the shard that
  // reached the most, since each shard's limit was its own and in-flight counts of separate
  // processes do not add into a limit any one of them held. A shard that did not record it (an
  // older report) leaves the sum unknown, rather than short.
  const traffic = group.every(({ record }) => record.traffic) ? sumTraffic(group.map(({ record }) => record.traffic!)) : undefined;
  const load = loadOf(group.map(({ record }) => record), where);
  const { traffic: _shardTraffic, load: _shardLoad, ...kept } = earliest;
  return withoutDerived({
    ...kept,
    startedAt: earliest.startedAt,
    finishedAt,
    // The earliest shard's instant; the source is the same in every shard (checked above).
    referenceTime: earliest.referenceTime,
    options: shards.length > 0 ? { ...options, shard: shards.join(',') } : options,
    results,
    summary: summarize(results),
    causes: causesOf(results),
    judging: judgingOf(results),
    // Each shard's usage was totalled and priced by its run (prices can depend on the time).
    usage: sumUsage(group.map(({ record }) => record.usage)),
    interrupted: group.some(({ record }) => record.interrupted),
    ...(interruptedBy ? { interruptedBy } : {}),
    ...(endedEarly ? { endedEarly } : {}),
    ...(wrongBase ? { wrongBase } : {}),
    ...(traffic ? { traffic } : {}),
    ...(load ? { load } : {}),
  });
}

/**
 * The load phase of a cell's shards as one: each shard drove its share of `--load N` against the
 * same endpoint at once, so their steps add up (loadFigures.ts mergeLoadFigures). A shard whose
 * share was 0 (N below the shard count) drove none and carries none. Shares that add up to more
 * than the N every shard was given are not shards of one run.
 */
function loadOf(records: readonly RunRecord[], where: (problem: string) => MergeConflictError): RunRecord['load'] {
  const loads = records.flatMap((r) => (r.load ? [r.load] : []));
  if (loads.length === 0) return undefined;
  const n = records[0]!.options.load;
  const total = loads.reduce((sum, l) => sum + l.n, 0);
  if (n !== undefined && total > n) throw where(`the shards' load phases add up to ${total} in flight, more than --load ${n}: merge the shards of one run`);
  return mergeLoadFigures(loads);
}

/**
 * A merged cell's score is recomputed from its merged results; its coverage, which needs the
 * catalogue, is dropped rather than kept from one shard (a shard covers only its share).
 */
function withoutDerived(record: RunRecord): RunRecord {
  const { score: _score, coverage: _coverage, ...rest } = record;
  const { score } = scoreOf(rest);
  return score === undefined ? rest : { ...rest, score };
}

/**
 * Every shard of each target's run is among the records: shards 1/2 alone would pass for the whole
 * run, judged on half its checks. Shards of one target must also split the run the same way.
 */
function checkEveryShard(records: readonly RunRecord[]): void {
  const byTarget = new Map<string, { first: RunRecord; labels: Set<string> }>();
  for (const record of records) {
    if (record.options.shard === undefined) continue;
    const key = targetKey(record.target);
    const entry = byTarget.get(key) ?? { first: record, labels: new Set<string>() };
    for (const label of record.options.shard.split(',')) entry.labels.add(label.trim());
    byTarget.set(key, entry);
  }
  for (const [key, { first, labels }] of byTarget) {
    const parsed = [...labels].map((l) => /^(\d+)\/(\d+)$/.exec(l)).filter((m): m is RegExpExecArray => m !== null);
    const counts = [...new Set(parsed.map((m) => Number(m[2])))];
    if (counts.length > 1) throw new MergeConflictError(key, first.model, `the shards split the run differently (${[...labels].sort().join(', ')}): merge the shards of one run`);
    const count = counts[0];
    if (count === undefined) continue;
    const have = new Set(parsed.map((m) => Number(m[1])));
    const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !have.has(i));
    if (missing.length > 0) throw new MergeConflictError(key, first.model, `shard ${missing.map((i) => `${i}/${count}`).join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing (given: ${[...labels].sort().join(', ')}): without ${missing.length === 1 ? 'it' : 'them'} the merge would judge part of the run as the whole; give every shard's report.json or --json file`);
  }
}

/**
 * Merges shard records. Records of the same cell become one: the same model on the same target by
 * targetKey (the embedded emulator, a replay, or a live base URL), so shards that each ran their
 * own emulator on a random port merge into one cell per model. The merged record keeps the earliest
 * shard's target; its results are the shards' concatenated in the order given, summary recounted
 * from them, usage the sum of the shards' usage, traffic the sum of their requests and retries
 * with the highest concurrency reached, the load phase's steps added up step by step (each shard drove its
 * share of N at once), startedAt the earliest, finishedAt the latest, interrupted if any shard was, options.shard the shards' labels
 * joined by commas. Other records pass through; cells keep the order of their first record.
 * Throws MergeConflictError when a check (id and model) appears twice in a cell, when the shards of
 * a cell ran a different harness, spec, target model or options, or when a shard of a target's run
 * is missing.
 */
export function mergeRecords(records: readonly RunRecord[]): RunRecord[] {
  const cells = new Map<string, { record: RunRecord; index: number }[]>();
  records.forEach((record, index) => {
    const key = JSON.stringify([targetKey(record.target), record.model]);
    const cell = cells.get(key);
    if (cell) cell.push({ record, index });
    else cells.set(key, [{ record, index }]);
  });
  const merged = [...cells.values()].map(mergeCell);
  // After the cells: a check given twice is named as such, not as the shard it leaves out.
  checkEveryShard(records);
  return merged;
}
