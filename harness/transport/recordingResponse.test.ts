import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, test } from 'vitest';
import { closeAfterEach } from '#harness/testing/closeAfterEach.ts';
import { isHarnessError } from '#harness/core/errors/index.ts';
import { createTransport } from './createTransport.ts';
import { isMalformedResponseError, isTransportError } from './errors.ts';
import { SPEC_RETRY_POLICY, pause, startServer, type TestServer } from '#harness/testing/httpTestServer.ts';
import type { SseEvent, Transport, TransportOptions } from './types.ts';

/** What the exchange records of a yielded event: all but its kind, which the fold derives again on replay. */
const asRecorded = ({ kind: _kind, ...recorded }: SseEvent) => recorded;

let server: TestServer | undefined;
let transport: Transport | undefined;
closeAfterEach(() => [transport, server]);

async function serve(handler: (res: ServerResponse, path: string) => void | Promise<void>, options: Partial<TransportOptions> = {}): Promise<Transport> {
  server = await startServer((req, res) => {
    req.resume();
    void handler(res, req.url ?? '/');
  });
  transport = createTransport({ secrets: [], concurrency: 4, retry: SPEC_RETRY_POLICY, ...options });
  return transport;
}

async function collect(events: AsyncIterable<SseEvent>): Promise<{ events: SseEvent[]; error?: unknown }> {
  const out: SseEvent[] = [];
  try {
    for await (const event of events) out.push(event);
  } catch (error) {
    return { events: out, error };
  }
  return { events: out };
}

describe('events(): SSE read incrementally', () => {
  test('events are yielded as they arrive: each before the next is written', async () => {
    // The server writes each event only once the one before it was yielded (then 50 ms later): a
    // reader that held events back until more came, or until the end, would never see the end, and
    // the test's timeout would say so. Nothing is timed but the gaps the server itself left.
    const yielded: (() => void)[] = [];
    const seen = Array.from({ length: 6 }, (_, i) => new Promise<void>((resolve) => (yielded[i] = resolve)));
    const t = await serve(async (res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(': keep-alive\n\n');
      for (let n = 1; n <= 5; n += 1) {
        await seen[n - 1];
        await pause(50);
        res.write(`data: {"n":${n}}\n\n`);
      }
      await seen[5];
      await pause(50);
      res.end('data: [DONE]\n\n');
    });
    const res = await t.send({ method: 'POST', url: `${server!.url}/chat/completions`, body: { stream: true } });
    const all: SseEvent[] = [];
    for await (const event of res.events()) {
      all.push(event);
      yielded[all.length - 1]?.();
    }
    expect(all[0]).toMatchObject({ data: ':keep-alive' }); // a comment, in its place
    const events = all.slice(1);
    expect(events.map((e) => e.data)).toEqual(['{"n":1}', '{"n":2}', '{"n":3}', '{"n":4}', '{"n":5}', '[DONE]']);
    // Arrival offsets, from the headers on: each event was written at least 50 ms after the one before arrived.
    const ats = events.map((e) => e.at);
    for (let i = 1; i < ats.length; i += 1) expect(ats[i]! - ats[i - 1]!).toBeGreaterThan(30);

    const recorded = res.exchange.response!;
    expect(all.map((e) => e.kind)).toEqual(['comment', 'data', 'data', 'data', 'data', 'data', 'done']);
    expect(recorded.events).toEqual(all.map(asRecorded));
    expect(recorded.text).toContain('data: {"n":1}\n\n');
    expect(recorded.durationMs).toBeGreaterThanOrEqual(250);
  });

  test('comments, blank lines, CRLF, event names and multi-line data are tolerated', async () => {
    const t = await serve((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('\n\n:\n: ping\r\n\r\n');
      res.write('event: message\ndata: a\ndata: b\n\n\n\n');
      res.write('data:no-space\r\n\r\n');
      res.write('data: split');
      setTimeout(() => res.end(' across chunks\n\ndata: [DONE]\n\n'), 20);
    });
    const res = await t.send({ method: 'GET', url: `${server!.url}/s` });
    const { events, error } = await collect(res.events());
    expect(error).toBeUndefined();
    expect(events.map(({ data, event }) => ({ data, event }))).toEqual([
      { data: ':', event: undefined },
      { data: ':ping', event: undefined },
      { data: 'a\nb', event: 'message' },
      { data: 'no-space', event: undefined },
      { data: 'split across chunks', event: undefined },
      { data: '[DONE]', event: undefined },
    ]);
    expect(res.exchange.response!.events).toEqual(events.map(asRecorded));
  });

  test('a data line that is not complete JSON is not the transport\'s business: it is an event like any other', async () => {
    const t = await serve((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end('data: {"choices":[{"delta":\n\ndata: [DONE]\n\n');
    });
    const res = await t.send({ method: 'GET', url: `${server!.url}/s` });
    const { events, error } = await collect(res.events());
    expect(error).toBeUndefined();
    expect(events.map((e) => e.data)).toEqual(['{"choices":[{"delta":', '[DONE]']);
  });

  test.each([
    ['the server drops the connection (other side closed)', 'destroy'],
    ['a TCP reset', 'reset'],
  ] as const)('%s mid-stream: TransportError HARNESS_RESET, keeping the events that arrived', async (_what, how) => {
    const t = await serve(async (res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"n":1}\n\n');
      await pause(30);
      res.write('data: {"n":2}\n\n');
      await pause(30);
      res.write('data: {"n":3, "cut');
      await pause(30);
      if (how === 'reset') res.socket!.resetAndDestroy();
      else res.socket!.destroy();
    });
    const res = await t.send({ method: 'POST', url: `${server!.url}/chat/completions`, body: { stream: true } });
    const { events, error } = await collect(res.events());
    expect(events.map((e) => e.data)).toEqual(['{"n":1}', '{"n":2}']);
    expect(isTransportError(error) && error.code).toBe('HARNESS_RESET');
    if (!isTransportError(error)) throw error;
    expect(error.message).toMatch(/^connection reset before the response was complete .* — POST http:\/\/127\.0\.0\.1:\d+\/chat\/completions$/);
    expect(error.exchange).toBe(res.exchange);
    expect(error.exchange.response!.events!.map((e) => e.data)).toEqual(['{"n":1}', '{"n":2}']);
    expect(error.exchange.response!.text).toContain('data: {"n":3, "cut');
    expect(error.exchange.error).toEqual({ code: 'HARNESS_RESET', message: error.message });
  });

  test('a stream that ends inside an event: MALFORMED_STREAM after the complete events', async () => {
    const t = await serve((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end('data: {"n":1}\n\ndata: [DONE]\n');
    });
    const res = await t.send({ method: 'GET', url: `${server!.url}/s` });
    const { events, error } = await collect(res.events());
    expect(events.map((e) => e.data)).toEqual(['{"n":1}']);
    expect(isMalformedResponseError(error) && error.code).toBe('MALFORMED_STREAM');
    expect(isHarnessError(error)).toBe(false);
    expect(res.exchange.response!.text).toBe('data: {"n":1}\n\ndata: [DONE]\n');
  });

  test('an event whose bytes are not UTF-8 is flagged; the events around it are not', async () => {
    const t = await serve((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"n":1}\n\ndata: {"n":"');
      res.write(Buffer.from([0xff, 0xe2, 0x82]));
      res.write(Buffer.from([0xac])); // € completed across writes: fine
      res.end('"}\n\ndata: {"n":"\u00e9"}\n\ndata: [DONE]\n\n');
    });
    const res = await t.send({ method: 'GET', url: `${server!.url}/s` });
    const { events, error } = await collect(res.events());
    expect(error).toBeUndefined();
    expect(events.map((e) => [e.data, e.invalidUtf8 ?? false])).toEqual([
      ['{"n":1}', false],
      ['{"n":"\uFFFD€"}', true],
      ['{"n":"é"}', false],
      ['[DONE]', false],
    ]);
  });

  test('characters split between network reads (an emoji, CJK, an accent cut inside their bytes) arrive whole', async () => {
    const body = Buffer.from('data: {"content":"👋🏽 東京 café"}\n\ndata: [DONE]\n\n');
    const t = await serve(async (res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      // A cut inside each multi-byte character, each piece its own read.
      for (const [from, to] of [[0, 20], [20, 25], [25, 31], [31, 38], [38, body.length]] as const) {
        res.write(body.subarray(from, to));
        await pause(5);
      }
      res.end();
    });
    const res = await t.send({ method: 'GET', url: `${server!.url}/s` });
    const { events, error } = await collect(res.events());
    expect(error).toBeUndefined();
    expect(events.map((e) => [e.data, e.invalidUtf8 ?? false])).toEqual([
      ['{"content":"👋🏽 東京 café"}', false],
      ['[DONE]', false],
    ]);
  });

  test('a stream that never ends: BODY_TOO_LARGE past maxStreamBytes, after the events that arrived', async () => {
    const t = await serve((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = Buffer.from('data: {"n":1}\n\n'.repeat(4096));
      const pump = (): void => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    }, { maxStreamBytes: 1024 * 1024 });
    const res = await t.send({ method: 'GET', url: `${server!.url}/s` });
    const { events, error } = await collect(res.events());
    expect(events.length).toBeGreaterThan(1000);
    expect(isMalformedResponseError(error) && error.code).toBe('BODY_TOO_LARGE');
    expect((error as Error).message).toContain('longer than 1048576 bytes');
    expect(res.exchange.error?.code).toBe('BODY_TOO_LARGE');
  });

  test('the recording is capped; the reader still gets every event', async () => {
    const t = await serve((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (let n = 0; n < 50; n += 1) res.write(`data: ${'x'.repeat(100)}\n\n`);
      res.end();
    }, { maxRecordedBytes: 1000 });
    const res = await t.send({ method: 'GET', url: `${server!.url}/s` });
    const { events } = await collect(res.events());
    expect(events).toHaveLength(50);
    const recorded = res.exchange.response!;
    expect(recorded.truncated).toBe(true);
    expect(recorded.events!.length).toBe(10);
    expect(Buffer.byteLength(recorded.text!)).toBe(1000);
  });
});

describe('text() and json()', () => {
  test('json() tolerates leading blank lines (real bodies have them); the body is recorded parsed', async () => {
    const t = await serve((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('\n\n');
      setTimeout(() => res.end('\r\n  {"id":"x","choices":[]}\n'), 20);
    });
    const res = await t.send({ method: 'POST', url: `${server!.url}/chat/completions`, body: { model: 'm' } });
    expect(await res.json()).toEqual({ id: 'x', choices: [] });
    expect(res.exchange.response).toMatchObject({ status: 200, body: { id: 'x', choices: [] } });
    expect(res.exchange.response!.text).toBeUndefined();
    expect(await res.text()).toBe('\n\n\r\n  {"id":"x","choices":[]}\n'); // the same read, again
  });

  test('a non-JSON 200 body: a typed MALFORMED_JSON error (not a crash), the text kept', async () => {
    const t = await serve((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('<html>Bad gateway</html>');
    });
    const res = await t.send({ method: 'GET', url: `${server!.url}/models` });
    const error = await res.json().then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(isMalformedResponseError(error)).toBe(true);
    if (!isMalformedResponseError(error)) return;
    expect(error.code).toBe('MALFORMED_JSON');
    expect(error.text).toBe('<html>Bad gateway</html>');
    expect(error.message).toMatch(/^response body is not JSON \(.+\) — GET http:\/\/127\.0\.0\.1:\d+\/models$/);
    expect(res.exchange.response!.text).toBe('<html>Bad gateway</html>');
    expect(res.exchange.response!.body).toBeUndefined();
  });

  test('an empty body is not JSON either', async () => {
    const t = await serve((res) => {
      res.writeHead(200).end();
    });
    const res = await t.send({ method: 'GET', url: `${server!.url}/models` });
    await expect(res.json()).rejects.toMatchObject({ code: 'MALFORMED_JSON', message: expect.stringContaining('the body is empty') });
  });

  test('text() keeps at most maxRecordedBytes and counts the rest', async () => {
    const t = await serve((res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('y'.repeat(5000));
    }, { maxRecordedBytes: 100 });
    const res = await t.send({ method: 'GET', url: `${server!.url}/big` });
    expect(await res.text()).toBe('y'.repeat(100));
    expect(res.exchange.response).toMatchObject({ text: 'y'.repeat(100), truncated: true });
    await expect(res.json()).rejects.toMatchObject({ code: 'BODY_TOO_LARGE', message: expect.stringContaining('cut at 100 bytes') });
    expect(res.exchange.error?.code).toBe('BODY_TOO_LARGE');
  });

  test('a body that never ends: text() stops at maxRecordedBytes and drops the connection', async () => {
    let closed = false;
    const t = await serve((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.on('close', () => (closed = true));
      const chunk = Buffer.alloc(64 * 1024, 'z');
      const pump = (): void => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    }, { maxRecordedBytes: 100_000 });
    const res = await t.send({ method: 'POST', url: `${server!.url}/chat/completions`, body: {} });
    expect((await res.text()).length).toBe(100_000);
    expect(res.exchange.response!.truncated).toBe(true);
    await expect(res.json()).rejects.toMatchObject({ code: 'BODY_TOO_LARGE' });
    await pause(50);
    expect(closed).toBe(true);
  });

  test('a body that is not UTF-8: text() decodes it as U+FFFD, json() refuses it as INVALID_UTF8 naming the byte', async () => {
    const t = await serve((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"content":"ab');
      // The bad bytes split across two writes, after a good two-byte character also split.
      setTimeout(() => res.write(Buffer.from([0xc3])), 10);
      setTimeout(() => res.end(Buffer.concat([Buffer.from([0xa9, 0xc3, 0x28, 0xff]), Buffer.from('"}')])), 20);
    });
    const res = await t.send({ method: 'GET', url: `${server!.url}/x` });
    expect(await res.text()).toBe('{"content":"abé\uFFFD(\uFFFD"}');
    const error = await res.json().then(() => undefined, (err: unknown) => err);
    expect(isMalformedResponseError(error) && error.code).toBe('INVALID_UTF8');
    expect((error as Error).message).toContain('not valid UTF-8: byte 0xC3 at offset 16');
    expect(res.exchange.error?.code).toBe('INVALID_UTF8');
    expect(res.exchange.response!.body).toBeUndefined();
  });

  test('a body is read one way: events() after text() is a harness bug, HARNESS_BODY_USED', async () => {
    const t = await serve((res) => {
      res.writeHead(200).end('{}');
    });
    const res = await t.send({ method: 'GET', url: `${server!.url}/models` });
    await res.text();
    expect(() => res.events()).toThrow(expect.objectContaining({ code: 'HARNESS_BODY_USED' }));
    const other = await t.send({ method: 'GET', url: `${server!.url}/models` });
    other.events();
    expect(() => other.text()).toThrow(expect.objectContaining({ code: 'HARNESS_BODY_USED' }));
  });

  test('a body that breaks off mid-way: HARNESS_RESET with what arrived recorded', async () => {
    const t = await serve(async (res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"partial":');
      await pause(20);
      res.socket!.destroy();
    });
    const res = await t.send({ method: 'GET', url: `${server!.url}/models` });
    await expect(res.json()).rejects.toMatchObject({ code: 'HARNESS_RESET' });
    expect(res.exchange.response!.text).toBe('{"partial":');
    expect(res.exchange.error?.code).toBe('HARNESS_RESET');
  });
});
