// Test support: an endpoint that is broken by definition, to prove the harness survives it.
import http from 'node:http';
import type net from 'node:net';
import { createApp, createContext, generateKey } from '#harness/emulator/index.ts';
import { toFetchRequest, writeFetchResponse } from '#harness/core/http/fetchBridge.ts';
import type { Spec } from '#harness/spec/model.ts';
import { deadPort } from './httpTestServer.ts';

/**
 * How the server misbehaves. Only chat completions (POST …/chat/completions) are affected, and per
 * mode only the plain or the streamed ones, as `AFFECTS` says; every other request (GET /models,
 * the balance, the messages base, and the chat requests the mode leaves alone) is answered by the
 * embedded emulator, so the checks not aimed at the broken path still run and can pass.
 */
export type HostileMode =
  /** Nothing listens on the port. */
  | 'refused'
  /** The socket is destroyed once the request has arrived: no status line. */
  | 'reset-before-response'
  /** 200 and part of the body (half a JSON object, or one stream event), then the socket is destroyed. */
  | 'reset-during-response'
  /** The request is read and never answered. */
  | 'stall-before-headers'
  /** A stream's headers and first event, then silence. */
  | 'stall-mid-stream'
  /** 200 and a body that never ends: JSON bytes, or valid stream chunks without end. */
  | 'endless-body'
  /** 200, `content-type: application/json`, and an HTML page. */
  | 'not-json'
  /** The emulator's answer (its status kept), or one event of its stream, with bytes that are not UTF-8 in its first string. */
  | 'invalid-utf8'
  /** 400 with a 10 MB JSON error envelope. */
  | 'huge-error-body'
  /** 307 to the same URL, forever. */
  | 'redirect-loop'
  /** The emulator's stream with one event that is not JSON in the middle. */
  | 'malformed-sse-event'
  /** 200, a stream that carries two chunks and then `data: {"error": …}`, and no `[DONE]`. */
  | 'stream-error-no-done'
  /** 500 with an error envelope, to every request on every path: a gateway whose upstream is gone. */
  | 'server-error-everywhere'
  /** 500 on two routes it cannot translate (fill-in-the-middle, the balance), the emulator elsewhere: a gateway in front of a provider. */
  | 'server-error-two-paths'
  /** As `python3 -m http.server` answers: 404 (an HTML page) to every GET, 501 to every POST. */
  | 'not-implemented'
  /** 200, and a body that never ends: one byte every TRICKLE_MS, never idle long enough for an idle timeout. */
  | 'trickle-body'
  /** The first time a request arrives (same method, path, key and body), 500; the emulator's answer when it is asked again. */
  | 'first-attempt-500';

/** Which chat completions a mode breaks: the plain ones, the streamed ones, or both. */
export const AFFECTS: Record<HostileMode, { plain: boolean; streamed: boolean }> = {
  refused: { plain: true, streamed: true },
  'reset-before-response': { plain: true, streamed: true },
  'reset-during-response': { plain: true, streamed: true },
  'stall-before-headers': { plain: true, streamed: true },
  'stall-mid-stream': { plain: false, streamed: true },
  'endless-body': { plain: true, streamed: true },
  'not-json': { plain: true, streamed: false },
  'invalid-utf8': { plain: true, streamed: true },
  'huge-error-body': { plain: true, streamed: true },
  'redirect-loop': { plain: true, streamed: true },
  'malformed-sse-event': { plain: false, streamed: true },
  'stream-error-no-done': { plain: false, streamed: true },
  'server-error-everywhere': { plain: true, streamed: true },
  'server-error-two-paths': { plain: false, streamed: false },
  'not-implemented': { plain: true, streamed: true },
  'trickle-body': { plain: true, streamed: true },
  'first-attempt-500': { plain: true, streamed: true },
};

/** How often `trickle-body` writes its next byte. */
export const TRICKLE_MS = 2_000;

/** Modes that break every request, on every path, not only chat completions. */
const EVERYWHERE = new Set<HostileMode>(['server-error-everywhere', 'not-implemented', 'first-attempt-500']);

/** The two routes `server-error-two-paths` breaks: POST {beta}/completions (not chat) and GET …/user/balance. */
const onTwoPaths = (method: string | undefined, path: string) => (method === 'POST' && /\/completions$/.test(path) && !/\/chat\/completions$/.test(path)) || path.endsWith('/user/balance');

export const HOSTILE_MODES = Object.keys(AFFECTS) as HostileMode[];

export interface HostileOptions {
  spec: Spec;
  /** The key the emulator behind it accepts (generated when absent). */
  apiKey?: string;
  /** The emulator's clock. */
  now?: () => Date;
  /** A stall ends (the socket is destroyed) after this long at most, so nothing outlives a test. Default 120 s. */
  maxStallMs?: number;
  /** Size of the `huge-error-body` body. Default 10 MB. */
  hugeBytes?: number;
  /** Break every request, on every path (a dead endpoint), not only chat completions. */
  everywhere?: boolean;
}

export interface HostileServer {
  url: string;
  apiKey: string;
  mode: HostileMode;
  /** Requests the mode broke, and requests answered plainly. */
  counts: { broken: number; plain: number };
  close(): Promise<void>;
}

const SSE_HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' };
const JSON_HEADERS = { 'content-type': 'application/json' };

/** Starts a hostile server on 127.0.0.1 (port 0); for `refused`, returns a port nothing listens on. */
export async function startHostileServer(mode: HostileMode, options: HostileOptions): Promise<HostileServer> {
  const apiKey = options.apiKey ?? generateKey();
  const counts = { broken: 0, plain: 0 };
  if (mode === 'refused') {
    return { url: `http://127.0.0.1:${await deadPort()}`, apiKey, mode, counts, close: async () => undefined };
  }
  const app = createApp(createContext({ spec: options.spec, apiKeys: [apiKey], ...(options.now ? { now: options.now } : {}) }));
  const maxStallMs = options.maxStallMs ?? 120_000;
  const hugeBytes = options.hugeBytes ?? 10 * 1000 * 1000;
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  };

  /** Requests `first-attempt-500` has seen once. */
  const seenOnce = new Set<string>();
  const server = http.createServer((req, res) => {
    void (async () => {
      const body = await readAll(req);
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      const chat = req.method === 'POST' && /\/chat\/completions$/.test(path);
      const streamed = chat && isStreamed(body);
      let affected = EVERYWHERE.has(mode) || options.everywhere === true || (chat && (streamed ? AFFECTS[mode].streamed : AFFECTS[mode].plain));
      if (mode === 'server-error-two-paths') affected = onTwoPaths(req.method, path);
      if (mode === 'first-attempt-500') {
        const key = `${req.method} ${req.url} ${req.headers.authorization ?? ''} ${body.toString('utf8')}`;
        affected = !seenOnce.has(key);
        seenOnce.add(key);
      }
      if (!affected) {
        counts.plain += 1;
        await writeFetchResponse(await app(toFetchRequest(req, body)), res);
        return;
      }
      counts.broken += 1;
      await misbehave({ mode, req, body, res, streamed, app, maxStallMs, hugeBytes, later });
    })().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    apiKey,
    mode,
    counts,
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        timers.clear();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

interface Misbehaviour {
  mode: HostileMode;
  req: http.IncomingMessage;
  body: Buffer;
  res: http.ServerResponse;
  streamed: boolean;
  app: (req: Request) => Promise<Response>;
  maxStallMs: number;
  hugeBytes: number;
  later: (ms: number, fn: () => void) => void;
}

async function misbehave(m: Misbehaviour): Promise<void> {
  const { res, streamed } = m;
  // A TCP RST (ECONNRESET at the client), not a polite FIN.
  const destroy = () => res.socket?.resetAndDestroy();
  switch (m.mode) {
    case 'refused':
      return;
    case 'reset-before-response':
      destroy();
      return;
    case 'reset-during-response':
      await beginAnswer(m, 'Hel');
      // After the bytes are on the wire, so the client sees a response that breaks off.
      m.later(50, destroy);
      return;
    case 'stall-before-headers':
      m.later(m.maxStallMs, destroy);
      return;
    case 'stall-mid-stream': {
      const events = await emulatorEvents(m);
      res.writeHead(200, SSE_HEADERS);
      res.write(events[0]);
      m.later(m.maxStallMs, destroy);
      return;
    }
    case 'endless-body':
      if (streamed) {
        const events = await emulatorEvents(m);
        res.writeHead(200, SSE_HEADERS);
        res.write(events[0]);
        // Valid chunks, 64 KB to a write: a flood as the network would carry it.
        const one = events[1] ?? events[0]!;
        const chunk = Buffer.from(one.repeat(Math.ceil(65_536 / one.length)));
        flood(res, () => chunk);
      } else {
        res.writeHead(200, JSON_HEADERS);
        res.write('{"id":"chatcmpl-hostile","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"');
        const chunk = Buffer.from('and on '.repeat(9000));
        flood(res, () => chunk);
      }
      return;
    case 'server-error-two-paths':
    case 'first-attempt-500':
    case 'server-error-everywhere':
      res.writeHead(500, JSON_HEADERS);
      res.end(JSON.stringify({ error: { message: 'upstream unavailable', type: 'server_error', code: 'internal_error' } }));
      return;
    case 'not-implemented': {
      // The pages python's http.server writes (BaseHTTPRequestHandler.send_error).
      const [status, message] = m.req.method === 'GET' ? [404, 'File not found'] : [501, `Unsupported method ('${m.req.method}')`];
      res.writeHead(status, { 'content-type': 'text/html;charset=utf-8', connection: 'close' });
      res.end(`<!DOCTYPE HTML>\n<html lang="en">\n    <head>\n        <meta charset="utf-8">\n        <title>Error response</title>\n    </head>\n    <body>\n        <h1>Error response</h1>\n        <p>Error code: ${status}</p>\n        <p>Message: ${message}.</p>\n    </body>\n</html>\n`);
      return;
    }
    case 'trickle-body': {
      await beginAnswer(m, '');
      const tick = () => {
        if (res.destroyed) return;
        res.write(streamed ? ':' : 'z');
        m.later(TRICKLE_MS, tick);
      };
      m.later(TRICKLE_MS, tick);
      return;
    }
    case 'not-json':
      res.writeHead(200, JSON_HEADERS);
      res.end('<html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>\n');
      return;
    case 'invalid-utf8': {
      // 0xC3 0x28 is a two-byte lead followed by an ASCII byte; 0xFF never occurs in UTF-8.
      const bad = Buffer.from([0xc3, 0x28, 0xff]);
      if (streamed) {
        const events = await emulatorEvents(m);
        const marked = markFirstString(events[1] ?? events[0]!);
        const [before, after] = marked.split('\u0000') as [string, string];
        res.writeHead(200, SSE_HEADERS);
        res.write(events[0]);
        res.write(Buffer.concat([Buffer.from(before), bad, Buffer.from(after)]));
        res.end(events.slice(2).join(''));
      } else {
        const plain = await m.app(toFetchRequest(m.req, m.body));
        const text = markFirstString(await plain.text());
        const [before, after] = text.split('\u0000') as [string, string];
        res.writeHead(plain.status, JSON_HEADERS);
        res.end(Buffer.concat([Buffer.from(before), bad, Buffer.from(after)]));
      }
      return;
    }
    case 'huge-error-body': {
      const head = '{"error":{"message":"';
      const tail = '","type":"invalid_request_error","param":null,"code":"invalid_request"}}';
      const filler = Buffer.alloc(Math.max(0, m.hugeBytes - head.length - tail.length), 'x');
      res.writeHead(400, { ...JSON_HEADERS, 'content-length': String(head.length + filler.length + tail.length) });
      res.write(head);
      res.write(filler);
      res.end(tail);
      return;
    }
    case 'redirect-loop':
      res.writeHead(307, { location: m.req.url ?? '/', 'content-length': '0' });
      res.end();
      return;
    case 'malformed-sse-event': {
      const events = await emulatorEvents(m);
      const middle = Math.max(1, Math.floor(events.length / 2));
      res.writeHead(200, SSE_HEADERS);
      res.end([...events.slice(0, middle), 'data: {"id": "chatcmpl-broken", "choices": [\n\n', ...events.slice(middle)].join(''));
      return;
    }
    case 'stream-error-no-done': {
      const events = await emulatorEvents(m);
      res.writeHead(200, SSE_HEADERS);
      res.end([...events.slice(0, 2), 'data: {"error": {"message": "the model is overloaded", "type": "server_error", "code": "overloaded"}}\n\n'].join(''));
      return;
    }
  }
}

/** A 200 that has begun: the stream's headers and first event, or half a JSON completion whose content starts with `content`. */
async function beginAnswer(m: Misbehaviour, content: string): Promise<void> {
  if (m.streamed) {
    const events = await emulatorEvents(m);
    m.res.writeHead(200, SSE_HEADERS);
    m.res.write(events[0]);
    return;
  }
  m.res.writeHead(200, JSON_HEADERS);
  m.res.write(`{"id":"chatcmpl-hostile","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"${content}`);
}

/** Marks (with U+0000) the start of the first string value of a JSON text, where the bad bytes go. */
function markFirstString(json: string): string {
  const at = /":\s*"/.exec(json);
  if (!at) return `\u0000${json}`;
  const cut = at.index + at[0].length;
  return `${json.slice(0, cut)}\u0000${json.slice(cut)}`;
}

/** Writes `next()` as fast as the client reads, until the connection closes. */
function flood(res: http.ServerResponse, next: () => Buffer): void {
  const pump = (): void => {
    while (!res.destroyed && res.write(next()));
    if (!res.destroyed) res.once('drain', pump);
  };
  pump();
}

/** The emulator's answer to the same streamed request, split into its events (each with its blank line). */
async function emulatorEvents(m: Misbehaviour): Promise<string[]> {
  const answer = await m.app(toFetchRequest(m.req, m.body));
  const text = await answer.text();
  return text.split(/(?<=\n\n)/).filter((e) => e.trim() !== '');
}

function isStreamed(body: Buffer): boolean {
  try {
    const parsed = JSON.parse(body.toString('utf8')) as { stream?: unknown };
    return parsed.stream === true;
  } catch {
    return false;
  }
}

async function readAll(req: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

