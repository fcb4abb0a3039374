import { describe, expect, test } from 'vitest';
import type { Exchange } from '#harness/core/exchange.ts';
import { tempDirs } from '#harness/testing/tempDirs.ts';
import { fixtureRecorder, writeManifest, type FixtureManifest } from './fixtureFormat.ts';
import { replayModels } from './replayModels.ts';

const tmp = tempDirs('svc-replay-models-');
const BASE = 'http://127.0.0.1:9999';
const DEFAULTS = { defaults: ['svc-v4-flash', 'svc-v4-pro', 'svc-chat', 'svc-reasoner'], all: ['svc-v4-flash', 'svc-v4-pro', 'svc-chat', 'svc-reasoner', 'svc-v3.2'] };
const manifest: FixtureManifest = { schemaVersion: 1, recordedAt: '2026-06-01T00:00:00.000Z', clock: '2026-06-01T00:00:00.000Z', spec: { revision: 'r' }, harness: { version: '0' }, baseUrl: BASE, messagesBasePath: '/anthropic', emptyBalanceKey: false };
const asking = (model: string): Exchange => ({
  request: { method: 'POST', url: `${BASE}/chat/completions`, headers: {}, body: { model, messages: [{ role: 'user', content: 'hi' }] } },
  response: { status: 200, headers: {}, body: {}, durationMs: 1 },
  attempts: 1,
});

/** A recording holding one request per model in `asked`, its manifest with `extra`. */
function recording(extra: Partial<FixtureManifest>, asked: string[] = []): string {
  const dir = tmp();
  writeManifest(dir, { ...manifest, ...extra });
  const record = fixtureRecorder(dir, BASE);
  for (const m of asked) record(asking(m), { secret: 0 });
  return dir;
}

describe('replayModels: the models a replay runs', () => {
  test('the recorded models without --model (not the spec defaults); a model not recorded is a usage error naming those that were', () => {
    const dir = recording({ models: ['svc-v4-flash'] }, ['svc-v4-flash']);
    expect(replayModels(dir, undefined, DEFAULTS)).toEqual(['svc-v4-flash']);
    expect(replayModels(dir, ['svc-v4-flash'], DEFAULTS)).toEqual(['svc-v4-flash']);
    expect(() => replayModels(dir, ['svc-v4-flash', 'svc-v4-pro'], DEFAULTS)).toThrow(
      `run: --fixtures ${dir} recorded svc-v4-flash only; --model svc-v4-pro was never recorded. Replay with --model svc-v4-flash, or record svc-v4-pro.`,
    );
    const two = recording({ models: ['svc-v4-flash', 'svc-chat'] });
    expect(() => replayModels(two, ['svc-v4-pro', 'svc-reasoner'], DEFAULTS)).toThrow(
      `run: --fixtures ${two} recorded svc-v4-flash, svc-chat only; --model svc-v4-pro, svc-reasoner were never recorded. Replay with --model svc-v4-flash or --model svc-chat, or record svc-v4-pro, svc-reasoner.`,
    );
  });

  test('an older manifest, without the list: what its requests name is recorded, and it says it cannot tell more', () => {
    const dir = recording({}, ['svc-v4-flash', 'no-such-model']);
    expect(replayModels(dir, undefined, DEFAULTS)).toEqual(['svc-v4-flash']);
    expect(() => replayModels(dir, ['svc-v4-pro'], DEFAULTS)).toThrow(
      `run: --fixtures ${dir} does not list the models it recorded (an older recording), and no request in it names svc-v4-pro: never recorded. Replay with --model svc-v4-flash, or record svc-v4-pro.`,
    );
    expect(() => replayModels(recording({}), undefined, DEFAULTS)).toThrow(/does not list the models it recorded .* a default model of the spec .*Record it again\./);
    expect(() => replayModels(recording({}, ['svc-v3.2']), undefined, DEFAULTS)).toThrow(/names a default model of the spec .*Replay with --model svc-v3\.2, or record it again\./);
  });

  test('a directory that holds no recording is left to the replay target, which refuses it after the flags are checked', () => {
    expect(replayModels(tmp(), undefined, DEFAULTS)).toEqual(DEFAULTS.defaults);
    expect(replayModels(tmp(), ['svc-v4-pro'], DEFAULTS)).toEqual(['svc-v4-pro']);
  });
});
