import { describe, expect, test } from 'vitest';
import { resultOf } from '#harness/testing/results.ts';
import type { CheckResult } from '#harness/core/outcome.ts';
import { readManifest, writeManifest } from '#harness/replay/fixtureFormat.ts';
import { tempDirs } from '#harness/testing/tempDirs.ts';
import { finishRecording } from './startRecording.ts';

const tmp = tempDirs('svc-start-recording-');
const result = (checkId: string, model: string, verdict: CheckResult['verdict'], skipKind?: CheckResult['skipKind']): CheckResult => resultOf({
  checkId, title: checkId, area: checkId.split('.')[0]!, severity: 'must', specRefs: [], model, verdict, ...(skipKind ? { skipKind } : {}), durationMs: 1,
});

describe('finishRecording: the manifest names the checks a recording holds', () => {
  test('per model, sorted: what ran on the endpoint answers (any verdict, or a skip the replay reproduces); not what sent nothing', () => {
    const dir = tmp();
    writeManifest(dir, { schemaVersion: 1, recordedAt: '2026-06-01T00:00:00.000Z', clock: '2026-06-01T00:00:00.000Z', spec: { revision: 'r' }, harness: { version: '0' }, baseUrl: 'http://127.0.0.1:1', messagesBasePath: '/anthropic', emptyBalanceKey: false, models: ['svc-v4-flash', 'svc-v4-pro'] });
    finishRecording(dir, [
      result('stream.b', 'svc-v4-flash', 'pass'),
      result('stream.a', 'svc-v4-flash', 'fail'),
      result('error.c', 'svc-v4-flash', 'error'),
      result('rule.d', 'svc-v4-flash', 'unsupported'),
      result('rule.e', 'svc-v4-flash', 'skip', 'inconclusive'),
      result('messages.f', 'svc-v4-flash', 'skip', 'blocked'),
      // Sent nothing a replay could answer: the budget, an interruption, --without.
      result('rule.g', 'svc-v4-flash', 'skip', 'budget'),
      result('rule.h', 'svc-v4-flash', 'skip', 'interrupted'),
      result('rule.i', 'svc-v4-flash', 'skip', 'out-of-scope'),
    ]);
    const manifest = readManifest(dir);
    expect(manifest.models).toEqual(['svc-v4-flash', 'svc-v4-pro']);
    expect(manifest.checks).toEqual({ 'svc-v4-flash': ['error.c', 'messages.f', 'rule.d', 'rule.e', 'stream.a', 'stream.b'], 'svc-v4-pro': [] });
  });
});
