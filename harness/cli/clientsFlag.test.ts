import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { CLIENT_NAMES, CLIENTS, DEFAULT_CLIENTS } from '#harness/checks/client/index.ts';
import type { RunRecord } from '#harness/results/index.ts';
import { captureIO } from '#harness/testing/captureIO.ts';
import { tempDirs } from '#harness/testing/tempDirs.ts';
import { configFlags } from './configFlags.ts';
import { main } from './main.ts';
import { clientsOf } from './runFlags.ts';

const tmp = tempDirs('svc-clients-flag-');
const NOW = '2026-06-01T00:00:00Z';

async function cli(args: string[]) {
  const dir = tmp();
  const io = captureIO();
  const code = await main(['run', '--quiet', '--report-dir', dir, '--json', join(dir, 'all.json'), '--now', NOW, '--model', 'svc-v4-flash', ...args], io);
  const records = code === 2 ? [] : (JSON.parse(readFileSync(join(dir, 'all.json'), 'utf8')) as { records: RunRecord[] }).records;
  return { code, io, dir, records, ids: [...new Set(records.flatMap((r) => r.results.map((x) => x.checkId)))] };
}

describe('--clients: which pinned clients each answer is handed to', () => {
  test('without it, the official two; the record names them', async () => {
    const run = await cli(['--only', 'client']);
    expect(run.code).toBe(0);
    expect(new Set(run.ids.map((id) => id.split('.')[1]))).toEqual(new Set(DEFAULT_CLIENTS));
    expect(run.records[0]!.options.clients).toEqual(DEFAULT_CLIENTS);
    expect(readFileSync(join(run.dir, 'emulator', 'svc-v4-flash', 'report.md'), 'utf8')).toContain(`clients \`${DEFAULT_CLIENTS.join(',')}\``);
  });

  test('the client names `run --help` prints without loading a client are the pinned clients, in order', () => {
    expect(CLIENTS.map((c) => c.name)).toEqual([...CLIENT_NAMES]);
  });

  test('`record` hands answers to every pinned client unless told otherwise: its replay may choose any', () => {
    expect(clientsOf('record', undefined)).toEqual(CLIENTS.map((c) => c.name));
    expect(clientsOf('run', undefined)).toEqual(DEFAULT_CLIENTS);
    expect(clientsOf('record', 'openai')).toEqual(['openai']);
    // A replay judges the clients its recording holds, unless told otherwise.
    expect(clientsOf('run', undefined, ['client.openai.chat', 'stream.events.done-last', 'client.langchain.error'])).toEqual(['openai', 'langchain']);
    expect(clientsOf('run', undefined, ['stream.events.done-last'])).toEqual(DEFAULT_CLIENTS);
    expect(clientsOf('run', 'anthropic', ['client.openai.chat'])).toEqual(['anthropic']);
  });

  test('--clients anthropic runs only that client\'s checks; --clients none runs none', async () => {
    const anthropic = await cli(['--only', 'client,models.list', '--clients', 'anthropic']);
    expect(anthropic.ids.filter((id) => id.startsWith('client.')).every((id) => id.startsWith('client.anthropic.'))).toBe(true);
    expect(anthropic.ids.some((id) => id.startsWith('client.anthropic.'))).toBe(true);
    const none = await cli(['--clients', 'none']);
    expect(none.ids.length).toBeGreaterThan(50);
    expect(none.ids.filter((id) => id.startsWith('client.'))).toEqual([]);
    expect(none.records[0]!.options.clients).toEqual([]);
  });

  test.each([
    [['--clients', 'openai,bogus'], /^run: --clients "bogus" is no pinned client; the clients are openai, anthropic.* \(or none\), e\.g\. --clients openai,anthropic/],
    [['--clients', ','], /^run: --clients names no client/],
    [['--only', 'client.anthropic', '--clients', 'openai'], /--only "client\.anthropic" matches only checks of clients not chosen: add --clients anthropic \(chosen: openai\)/],
  ])('%j is a usage error that names the flag and what to give (exit 2), before anything is sent', async (args, message) => {
    const run = await cli(args);
    expect(run.code).toBe(2);
    expect(run.io.err.join('\n')).toMatch(message);
  });

  test('a config file sets them as `clients` and `clients_gate`; a client it does not know is named by file, line and key', () => {
    const io = captureIO();
    const good = tmp();
    writeFileSync(join(good, 'svc-conformance.yaml'), 'clients: [anthropic]\nclients_gate: true\n');
    expect(configFlags('run', {}, io, good).values).toEqual({ clients: 'anthropic', 'clients-gate': true });
    const bad = tmp();
    writeFileSync(join(bad, 'svc-conformance.yaml'), 'strict: true\nclients: [openai, langchian]\n');
    expect(() => configFlags('run', {}, io, bad)).toThrow(/svc-conformance\.yaml:2:\d+ clients: "langchian" is no pinned client/);
  });
});

describe('--clients-gate: a client that breaks fails the run', () => {
  test('a flat error body breaks openai: tolerated (advisory) without the flag, exit 1 with it, and every report says why', async () => {
    const args = ['--fault', 'error-envelope-flat', '--only', 'client.openai.error'];
    const advisory = await cli(args);
    expect(advisory.records[0]!.results.map((r) => r.verdict)).toEqual(['fail']);
    expect(advisory.code).toBe(0);
    const gated = await cli([...args, '--clients-gate']);
    expect(gated.code).toBe(1);
    expect(gated.records[0]!.options.clientsGate).toBe(true);
    const summary = JSON.parse(readFileSync(join(gated.dir, 'summary.json'), 'utf8')) as { outcome: string; exitCode: number };
    expect(summary).toMatchObject({ outcome: 'fail', exitCode: 1 });
    expect(readFileSync(join(gated.dir, 'emulator', 'svc-v4-flash', 'junit.xml'), 'utf8')).toContain('<property name="clientsGate" value="true"/>');
    expect(readFileSync(join(gated.dir, 'emulator', 'svc-v4-flash', 'report.md'), 'utf8')).toContain('gating');
  });
});
