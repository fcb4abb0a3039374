import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import type { CheckResult } from '#harness/core/outcome.ts';
import { captureIO } from '#harness/testing/captureIO.ts';
import { main } from './main.ts';

/**
 * The recordings committed under fixtures/: the embedded emulator recorded on each side of the
 * legacy aliases' retirement instant. Replayed offline (no emulator, no key), each must still give
 * a clean run, and its lifecycle checks must judge at the recording's clock.
 */
const FIXTURES = fileURLToPath(new URL('../../fixtures/', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'svc-sets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function replay(set: string) {
  const out = join(dir, set);
  const code = await main(['run', '--fixtures', join(FIXTURES, set), '--fast', '--quiet', '--report-dir', out, '--json', `${out}.json`], captureIO());
  const all = JSON.parse(readFileSync(`${out}.json`, 'utf8')) as { records: { model: string; referenceTime: { source: string; value: string }; results: CheckResult[] }[] };
  return { code, records: all.records, results: all.records.flatMap((r) => r.results) };
}

describe.each([
  ['emulator-before-retirement', '2026-07-24T15:00:00.000Z'],
  ['emulator-after-retirement', '2026-07-24T17:00:00.000Z'],
])('fixtures/%s', (set, clock) => {
  test('replays offline to a clean run at the recording clock', async () => {
    const run = await replay(set);
    expect(run.results.filter((r) => r.verdict === 'error' || r.verdict === 'fail').map((r) => `${r.checkId} (${r.model}): ${r.reason ?? r.failures?.[0]?.message}`)).toEqual([]);
    expect(run.code).toBe(0);
    for (const r of run.records) expect(r.referenceTime).toEqual({ source: 'fixture', value: clock });
    const lifecycle = run.results.filter((r) => r.checkId.endsWith('.state-at-reference-time'));
    expect(lifecycle.map((r) => r.verdict)).toEqual(['pass', 'pass']);
    // The manifest names what the recording holds, and the replay judges exactly that: nothing "not recorded".
    const manifest = JSON.parse(readFileSync(join(FIXTURES, set, 'manifest.json'), 'utf8')) as { models: string[]; checks: Record<string, string[]> };
    expect(run.records.map((r) => r.model)).toEqual(manifest.models);
    expect(run.results.filter((r) => r.skipKind === 'not-recorded')).toEqual([]);
    for (const m of manifest.models) expect(run.results.filter((r) => r.model === m).map((r) => r.checkId).sort(), m).toEqual(manifest.checks[m]);
  }, 60_000);
});

/**
 * fixtures/production-captures: real captures of the production service, each answering the one
 * request of the harness that asks what the capture's own request asked. The report says which
 * real behaviours conform and which truly differ; what nothing was captured for is skipped.
 */
describe('fixtures/production-captures', () => {
  test('judges real traffic: the V4-era answers keep the contract but for the bare-UUID completion id', async () => {
    const run = await replay('production-captures');
    const judged = run.results.filter((r) => r.verdict !== 'skip');
    expect(judged).toHaveLength(34); // docs/recording.md ("Real-world traffic") quotes this figure
    const failed = judged.filter((r) => r.verdict !== 'pass');
    // The one true difference the description states: ids are `chatcmpl-` + UUID; production sends a bare UUID.
    expect(failed.map((r) => `${r.checkId} ${r.severity} ${r.verdict}`)).toEqual(['schema.chat-completion.matches-stated-shapes should fail']);
    expect(failed[0]!.failures![0]!.message).toMatch(/^\/id: must match pattern "\^chatcmpl-/);
    expect(run.code).toBe(0);
    // Real answers judged at must: streams, reasoning, the wrong-key 401, the aliases before retirement.
    const passed = new Set(judged.filter((r) => r.verdict === 'pass').map((r) => `${r.model} ${r.checkId}`));
    for (const id of [
      'svc-v4-flash schema.chat-completion.matches-schema',
      'svc-v4-flash schema.stream-chunk.matches-schema',
      'svc-v4-flash stream.events.done-last',
      'svc-v4-flash stream.chunks.carry-a-choice',
      'svc-v4-flash stream.assembled.tool-calls-add-up',
      'svc-v4-flash stream.reasoning.deltas-when-thinking',
      'svc-v4-flash rule.chat.thinking.enabled-carries-reasoning',
      'svc-v4-flash auth.wrong-key.returns-401',
      // What the description's meaning entails holds on real answers too: sums, seconds, model ids.
      'svc-v4-flash usage.total.equals-prompt-plus-completion',
      'svc-v4-flash usage.cache.hit-plus-miss-equals-prompt',
      'svc-v4-flash usage.stream-total.equals-prompt-plus-completion',
      'svc-v4-flash usage.stream-cache.hit-plus-miss-equals-prompt',
      // Where a stream's usage arrives: in the final chunk, with finish_reason (advisory, shown here).
      'svc-v4-flash stream.usage.in-final-chunk',
      'svc-v4-flash answer.created.unix-seconds-near-clock',
      'svc-v4-flash answer.stream-created.unix-seconds-near-clock',
      'svc-v4-flash answer.model.names-a-model-of-the-service',
      'svc-v4-flash answer.stream-model.names-a-model-of-the-service',
      'svc-v4-flash stream.response.content-type-is-event-stream',
      // The official openai client reads the real answers as the harness does (checks/client/openai.ts).
      'svc-v4-flash client.openai.chat',
      'svc-v4-flash client.openai.stream',
      'svc-chat lifecycle.svc-chat.state-at-reference-time',
      'svc-reasoner lifecycle.svc-reasoner.state-at-reference-time',
    ]) expect(passed, id).toContain(id);
    // Whatever no capture answers is a skip "not recorded" that names the request, never a verdict.
    const notCaptured = run.results.filter((r) => r.skipKind === 'not-recorded');
    expect(notCaptured.length).toBeGreaterThan(0);
    for (const r of notCaptured) expect(r.reason).toMatch(/^not recorded: the fixture set holds no capture answering (GET|POST) \//);
    // The captures answer svc-v4-flash and the aliases it served: the replay runs those, not svc-v4-pro.
    expect(run.records.map((r) => r.model)).toEqual(['svc-v4-flash', 'svc-chat', 'svc-reasoner']);
    for (const r of run.records) expect(r.referenceTime).toEqual({ source: 'fixture', value: '2026-06-08T18:46:14.000Z' });
  }, 60_000);
});
