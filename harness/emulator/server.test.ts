import net from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadSpec } from '#harness/spec/load.ts';
import { startEmulator, type RunningEmulator } from './server.ts';

const KEY = 'sk-server-test-0123456789';
let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startEmulator({ spec: loadSpec().spec, apiKeys: [KEY] });
});
afterAll(() => emu.close());

/** Sends `raw` on a fresh connection and closes it when `until` resolves. */
function abruptClient(raw: string, until: (socket: net.Socket) => Promise<void>): Promise<void> {
  const { hostname, port } = new URL(emu.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => {
      socket.write(raw);
      void until(socket).then(() => {
        socket.destroy();
        resolve();
      });
    });
    socket.on('error', reject);
  });
}

const head = (length: number) => `POST /chat/completions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

describe('a client that goes away', () => {
  // Without a catch around the request's read, node:http's "aborted" rejection is unhandled: it
  // ends the process (and vitest reports it as an error of this file).
  test('mid-body: the emulator serves on', async () => {
    await abruptClient(`${head(1000)}{"model":`, () => new Promise((r) => setTimeout(r, 50)));
    await new Promise((r) => setTimeout(r, 50));
    const res = await fetch(`${emu.url}/models`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(res.status).toBe(200);
  });

  test('mid-stream: its concurrency slot is freed', async () => {
    const body = JSON.stringify({ model: 'svc-v4-flash', messages: [{ role: 'user', content: 'hello' }], stream: true });
    await abruptClient(`${head(Buffer.byteLength(body))}${body}`, (socket) => new Promise((r) => socket.once('data', () => r())));
    await expect.poll(() => emu.ctx.limiter.inFlight(KEY)).toBe(0);
  });
});

describe('under load, over a socket', () => {
  const chat = (content: string, stream = false) => ({ method: 'POST', headers: { authorization: `Bearer ${KEY}` }, body: JSON.stringify({ model: 'svc-v4-flash', messages: [{ role: 'user', content }], ...(stream ? { stream: true } : {}) }) });
  const long = `Repeat: ${Array.from({ length: 200 }, (_, i) => `w${i}`).join(' ')}`;

  test('load-requests-hung: no headers until the client gives up; its leaving frees the request', async () => {
    const hungEmu = await startEmulator({ spec: loadSpec().spec, apiKeys: [KEY], faults: ['load-requests-hung'], concurrencyPerKey: 64, streamIntervalMs: 20 });
    const streams = new AbortController();
    try {
      const held = await Promise.all(Array.from({ length: 8 }, () => fetch(`${hungEmu.url}/chat/completions`, { ...chat(long, true), signal: streams.signal })));
      expect(held.map((r) => r.status)).toEqual(Array(8).fill(200));
      await expect(fetch(`${hungEmu.url}/chat/completions`, { ...chat('Repeat: hello'), signal: AbortSignal.timeout(150) })).rejects.toThrow();
      await expect.poll(() => hungEmu.ctx.inFlight.count).toBe(8);
      streams.abort();
      await expect.poll(() => hungEmu.ctx.inFlight.count).toBe(0);
      expect((await fetch(`${hungEmu.url}/chat/completions`, chat('Repeat: hello'))).status).toBe(200);
    } finally {
      streams.abort();
      await hungEmu.close();
    }
  });

  test('load-streams-cut: a stream cut under load ends its body cleanly, with no finish_reason and no [DONE]', async () => {
    const cutEmu = await startEmulator({ spec: loadSpec().spec, apiKeys: [KEY], faults: ['load-streams-cut'], concurrencyPerKey: 64, streamIntervalMs: 5 });
    try {
      const texts = await Promise.all(Array.from({ length: 9 }, () => fetch(`${cutEmu.url}/chat/completions`, chat('Repeat: a b c d e f g h i j k l m n o p', true)).then((r) => r.text())));
      const cut = texts.filter((t) => !t.includes('[DONE]'));
      expect(cut.length).toBeGreaterThan(0);
      for (const t of cut) expect(t).not.toMatch(/"finish_reason":"/);
    } finally {
      await cutEmu.close();
    }
  });
});
