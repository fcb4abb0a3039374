import net from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { serveFetch, type FetchServer } from './fetchBridge.ts';

let server: FetchServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const failure = (err: unknown) => new Response(`failed: ${err instanceof Error ? err.message : String(err)}`, { status: 500 });

describe('serveFetch', () => {
  test('a node:http request reaches the handler as a fetch Request, and its Response goes back as sent', async () => {
    server = await serveFetch(async (request) => Response.json({ method: request.method, path: new URL(request.url).pathname, body: await request.text(), key: request.headers.get('x-key') }, { status: 201, headers: { 'x-answer': 'yes' } }), { failure });
    const res = await fetch(`${server.url}/echo?q=1`, { method: 'POST', headers: { 'x-key': 'k' }, body: 'hello' });
    expect(res.status).toBe(201);
    expect(res.headers.get('x-answer')).toBe('yes');
    expect(await res.json()).toEqual({ method: 'POST', path: '/echo', body: 'hello', key: 'k' });
  });

  test('a streamed body is written chunk by chunk, and a client leaving cancels the stream', async () => {
    let cancelled = false;
    let pulled = 0;
    server = await serveFetch(
      async () =>
        new Response(
          new ReadableStream({
            async pull(controller) {
              pulled += 1;
              await new Promise((r) => setTimeout(r, 5));
              controller.enqueue(new TextEncoder().encode(`chunk ${pulled}\n`));
            },
            cancel() {
              cancelled = true;
            },
          }),
        ),
      { failure },
    );
    const { hostname, port } = new URL(server.url);
    await new Promise<void>((resolve, reject) => {
      const socket = net.connect(Number(port), hostname, () => socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n'));
      socket.once('data', (data) => {
        expect(String(data)).toContain('chunk 1');
        socket.destroy();
        resolve();
      });
      socket.on('error', reject);
    });
    await expect.poll(() => cancelled).toBe(true);
  });

  test('Response.error() drops the connection; a throwing handler is answered with the failure response', async () => {
    server = await serveFetch(async (request) => {
      if (new URL(request.url).pathname === '/drop') return Response.error();
      throw new Error('boom');
    }, { failure });
    await expect(fetch(`${server.url}/drop`)).rejects.toThrow();
    const res = await fetch(`${server.url}/throw`);
    expect(res.status).toBe(500);
    expect(await res.text()).toBe('failed: boom');
  });
});
