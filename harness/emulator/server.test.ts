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
