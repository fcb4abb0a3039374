import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { FAULTS } from '#harness/emulator/index.ts';
import { captureIO } from '#harness/testing/captureIO.ts';
import { main } from '../main.ts';

const BIN = fileURLToPath(new URL('../../../bin/svc-conformance.js', import.meta.url));

/** Starts `svc-conformance emulate`, resolves with its first stdout lines and the process. */
function startEmulate(args: string[], lines: number) {
  const child = spawn(process.execPath, [BIN, 'emulate', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const got: string[] = [];
  const ready = new Promise<string[]>((resolve, reject) => {
    const rl = createInterface({ input: child.stdout });
    rl.on('line', (line) => {
      got.push(line);
      if (got.length === lines) resolve(got);
    });
    child.once('exit', (code) => reject(new Error(`emulate exited early with ${code}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, ready, exited };
}

describe('svc-conformance emulate', () => {
  test('prints its URL then a generated key, serves, and closes cleanly on SIGTERM', async () => {
    const { child, ready, exited } = startEmulate([], 2);
    const [url, key] = await ready;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(key).toMatch(/^sk-/);
    const res = await fetch(`${url}/models`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 20_000);

  test('with --api-key it prints only the URL and accepts that key; --now moves the clock; beyond --capacity and its --queue-bound, 429', async () => {
    const { child, ready, exited } = startEmulate(['--api-key', 'sk-given', '--now', '2026-07-24T15:58:00Z', '--capacity', '1', '--queue-bound', '0', '--stream-interval', '10'], 1);
    const [url] = await ready;
    const res = await fetch(`${url}/models`, { headers: { authorization: 'Bearer sk-given' } });
    const ids = ((await res.json()) as { data: { id: string }[] }).data.map((m) => m.id);
    expect(ids).toContain('svc-chat');
    // One stream holds the only slot, and no request may wait for it.
    const post = (body: Record<string, unknown>) => fetch(`${url}/chat/completions`, { method: 'POST', headers: { authorization: 'Bearer sk-given' }, body: JSON.stringify({ model: 'svc-v4-flash', messages: [{ role: 'user', content: `Repeat: ${'word '.repeat(100)}` }], ...body }) });
    const held = await post({ stream: true });
    const refused = await post({});
    expect({ status: refused.status, retryAfter: refused.headers.get('retry-after'), type: ((await refused.json()) as { error: { type: string } }).error.type }).toEqual({ status: 429, retryAfter: '1', type: 'rate_limit_error' });
    await held.body!.cancel();
    child.kill('SIGINT');
    expect(await exited).toBe(0);
  }, 20_000);

  test('--list-faults prints the whole catalogue, one line each', async () => {
    const io = captureIO();
    expect(await main(['emulate', '--list-faults'], io)).toBe(0);
    expect(io.out).toHaveLength(FAULTS.length);
    for (const f of FAULTS) expect(io.out.some((l) => l.startsWith(f.id) && l.includes(f.summary))).toBe(true);
  });

  test.each([
    [['--fault', 'no-such-fault'], '--fault no-such-fault is not in the catalogue'],
    [['--now', 'yesterday'], '--now "yesterday" is not an ISO 8601 instant'],
    [['--port=-1'], '--port must be an integer'],
    [['--port', '-1'], '--port must be an integer from 0 to 65535 (got "-1")'],
    [['--concurrency', 'many'], '--concurrency must be an integer'],
    [['--latency-ms', 'slow'], '--latency-ms must be an integer'],
    [['--capacity', '0'], '--capacity must be an integer from 1 to 100000 (got "0")'],
    [['--capacity', '4', '--queue-bound', 'some'], '--queue-bound must be an integer from 0 to 100000'],
    [['--queue-bound', '4'], '--queue-bound needs --capacity'],
    [['--tokens-per-second', '50', '--stream-interval', '20'], 'give --tokens-per-second or --stream-interval, not both'],
  ])('a bad flag %j is a usage error naming it', async (args, message) => {
    const io = captureIO();
    expect(await main(['emulate', ...args], io)).toBe(2);
    expect(io.err.join('\n')).toContain(message);
  });
});
