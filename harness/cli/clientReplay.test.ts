import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { CheckResult } from '#harness/core/outcome.ts';
import { captureIO } from '#harness/testing/captureIO.ts';
import { CLIENTS } from '#harness/checks/client/index.ts';
import { main } from './main.ts';

// The client checks (checks/client/) on a recording: the stream's own bytes are kept and replayed
// (replay/fixtureFormat.ts, recordedResponse.ts), so a client reads on a replay what it read live.
describe('client verdicts on a replay', () => {
  test('a recording replayed gives the client verdicts of the live run it recorded, broken clients included', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-client-replay-'));
    try {
      const verdicts = async (args: string[], name: string) => {
        const json = join(dir, `${name}.json`);
        const code = await main([...args, '--quiet', '--only', 'client.*', '--now', '2026-06-01T00:00:00Z', '--report-dir', join(dir, name), '--json', json], captureIO());
        const records = (JSON.parse(readFileSync(json, 'utf8')) as { records: { results: CheckResult[] }[] }).records;
        return { code, byCheck: Object.fromEntries(records.flatMap((r) => r.results).map((r) => [`${r.checkId} [${r.model}]`, r.verdict === 'fail' ? `fail: ${r.failures?.map((f) => f.message).join(' | ')}` : r.verdict])) };
      };
      const faults = ['--fault', 'stream-no-role', '--fault', 'error-envelope-flat', '--fault', 'messages-text-content-type'];
      const live = await verdicts(['record', '--out', join(dir, 'rec'), ...faults], 'live');
      // `record` hands answers to every pinned client, and its replay judges by default what it holds.
      const replayed = await verdicts(['run', '--fixtures', join(dir, 'rec')], 'replayed');
      expect(new Set(Object.keys(replayed.byCheck).map((k) => k.split('.')[1]))).toEqual(new Set(CLIENTS.map((c) => c.name)));
      const failed = Object.entries(live.byCheck).filter(([, v]) => v.startsWith('fail')).map(([k]) => k.split(' ')[0]);
      expect(new Set(failed)).toEqual(new Set(['client.openai.stream', 'client.openai.stream-tool-calls', 'client.openai.error', 'client.anthropic.messages', 'client.ai-sdk.error', 'client.langchain.error']));
      expect(replayed.byCheck).toEqual(live.byCheck);
      expect(replayed.code).toBe(live.code);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
