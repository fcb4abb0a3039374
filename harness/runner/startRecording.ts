import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '#harness/core/errors/index.ts';
import { relativePath, writeManifest } from '#harness/replay/fixtureFormat.ts';
import type { Spec } from '#harness/spec/model.ts';
import type { Target } from '#harness/targets/target.ts';

/**
 * `record`: readies DIR for a recording of `target`: its manifest written (the clock lifecycle checks
 * replay at), and no exchange of an earlier recording left, since a re-recording replaces it whole.
 */
export function startRecording(dir: string, target: Target, run: { spec: Spec; startedAt: Date; clock: string; version: string }): void {
  const messagesBasePath = relativePath(target.messagesBaseUrl, target.baseUrl);
  if (messagesBasePath === undefined) throw new UsageError(`record: the messages base ${target.messagesBaseUrl} is not under --base-url ${target.baseUrl}; a recording keeps paths relative to one base.`);
  rmSync(join(dir, 'exchanges'), { recursive: true, force: true });
  writeManifest(dir, {
    schemaVersion: 1,
    recordedAt: run.startedAt.toISOString(),
    clock: run.clock,
    spec: { revision: run.spec.revision },
    harness: { version: run.version },
    baseUrl: target.baseUrl,
    messagesBasePath,
    emptyBalanceKey: target.emptyBalanceKey !== undefined,
  });
}
