import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '#harness/core/errors/index.ts';
import type { CheckResult, SkipKind } from '#harness/core/outcome.ts';
import { readManifest, relativePath, writeManifest, writeUpstreamLog } from '#harness/replay/fixtureFormat.ts';
import type { UpstreamExchange } from '#harness/core/upstream.ts';
import type { Spec } from '#harness/spec/model.ts';
import type { Target } from '#harness/targets/target.ts';

/**
 * `record`: readies DIR for a recording of `target`: its manifest written (the clock lifecycle checks
 * replay at, the models recorded), and no exchange of an earlier recording left, since a
 * re-recording replaces it whole. Which checks it holds is written when the run ends (finishRecording).
 */
export function startRecording(dir: string, target: Target, run: { spec: Spec; startedAt: Date; clock: string; version: string; models: readonly string[]; load?: number }): void {
  const messagesBasePath = relativePath(target.messagesBaseUrl, target.baseUrl);
  if (messagesBasePath === undefined) throw new UsageError(`record: the messages base ${target.messagesBaseUrl} is not under --base-url ${target.baseUrl}; a recording keeps paths relative to one base.`);
  rmSync(join(dir, 'exchanges'), { recursive: true, force: true });
  rmSync(join(dir, 'upstream.json'), { force: true });
  writeManifest(dir, {
    schemaVersion: 1,
    recordedAt: run.startedAt.toISOString(),
    clock: run.clock,
    spec: { revision: run.spec.revision },
    harness: { version: run.version },
    baseUrl: target.baseUrl,
    messagesBasePath,
    emptyBalanceKey: target.emptyBalanceKey !== undefined,
    models: [...run.models],
    ...(run.load !== undefined && run.load > 0 ? { load: run.load } : {}),
    ...(target.upstream && target.upstream.kind !== 'recorded' ? { upstream: { kind: target.upstream.kind, anyKey: target.upstream.anyKey } } : {}),
  });
}

/**
 * Skips whose check still ran on the recorded answers, so a replay reproduces them: a failed
 * premise, a route the served check found missing, a check that does not apply. Any other skip
 * (budget, interruption, --without, or one of no known kind) sent nothing a replay could answer.
 */
const REPLAYABLE_SKIPS: ReadonlySet<SkipKind> = new Set(['inconclusive', 'blocked', 'not-applicable']);

/** Whether a result's exchanges are in the recording: its check ran to an end on what the endpoint answered. */
export function isRecorded(r: CheckResult): boolean {
  return r.verdict !== 'skip' || (r.skipKind !== undefined && REPLAYABLE_SKIPS.has(r.skipKind));
}

/**
 * Adds to DIR's manifest the checks recorded, per model: a replay skips every other check as not
 * recorded. A gateway run's upstream side is written beside it (upstream.json).
 */
export function finishRecording(dir: string, results: readonly CheckResult[], upstream?: readonly UpstreamExchange[]): void {
  if (upstream !== undefined) writeUpstreamLog(dir, upstream);
  const manifest = readManifest(dir);
  const checks: Record<string, string[]> = Object.fromEntries((manifest.models ?? []).map((m) => [m, []]));
  for (const r of results) if (isRecorded(r)) (checks[r.model] ??= []).push(r.checkId);
  for (const ids of Object.values(checks)) ids.sort();
  writeManifest(dir, { ...manifest, checks });
}
