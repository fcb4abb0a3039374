// Test support: a plain node:http proxy in front of another server (the emulator), standing for a
// gateway that routes, refuses or rewrites on its own.
import type { IncomingMessage } from 'node:http';
import { startServer, type TestServer } from './httpTestServer.ts';

export interface ProxyOptions {
  /** An answer of the proxy's own instead of forwarding (a refusal, a 404 for a path it does not route). */
  answer?(req: IncomingMessage, path: string, body: Buffer): { status: number; body: unknown } | undefined;
  /** The path a request is forwarded to (a router that mounts its upstream below a prefix); undefined: as asked. */
  rewritePath?(path: string): string;
  /** Rewrites a JSON request body before it is forwarded (a gateway that drops or replaces what it does not take); undefined: as sent. */
  rewriteRequest?(body: unknown, path: string): unknown;
  /** Rewrites a JSON body the target answered with (what a gateway that rewrites errors does), knowing the request it answers. */
  rewriteJson?(body: unknown, status: number, request: { method: string; path: string; body?: Buffer }): unknown;
  /**
   * An answer of the proxy's own in place of a JSON one the target gave (a gateway that re-frames
   * refusals: as a 200 stream, as a 500), knowing the request; undefined: forwarded (or rewriteJson).
   */
  replaceJson?(body: unknown, status: number, request: { method: string; path: string; body?: Buffer }): { status: number; contentType: string; text: string } | undefined;
  /** Answer 429 (retry-after 1) to a request arriving while this many are in flight, whatever their key, until each has ended. */
  maxInFlight?: number;
}

/** Starts the proxy on 127.0.0.1; requests it forwards go to `target` with their headers and body. */
export async function startProxy(target: string, options: ProxyOptions = {}): Promise<TestServer> {
  let inFlight = 0;
  return startServer(async (req, res) => {
    if (options.maxInFlight !== undefined) {
      if (inFlight >= options.maxInFlight) {
        req.resume();
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' }).end(JSON.stringify({ error: { message: `more than ${options.maxInFlight} requests in flight`, type: 'rate_limit_error', code: 'rate_limit_exceeded', param: null } }));
        return;
      }
      inFlight += 1;
      // Out of flight once the answer is all written ('finish'), or the client left ('close'): a busy
      // client reading the last bytes late must not count as a request still being served.
      let counted = true;
      const done = () => {
        if (counted) inFlight -= 1;
        counted = false;
      };
      res.on('finish', done);
      res.on('close', done);
    }
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const path = (req.url ?? '/').split('?')[0]!;
    const own = options.answer?.(req, path, Buffer.concat(chunks));
    if (own) {
      res.writeHead(own.status, { 'content-type': 'application/json' }).end(JSON.stringify(own.body));
      return;
    }
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([n]) => !['host', 'connection', 'content-length'].includes(n)).map(([n, v]) => [n, String(v)]));
    const body = chunks.length > 0 ? rewritten(Buffer.concat(chunks), path, options) : undefined;
    // A client that leaves (a run abandoning a stream it no longer needs, the proxy closing) stops
    // the forwarded request too, and a forwarded answer that breaks off ends this one: nothing
    // is left reading from the target, and no rejection escapes the handler.
    const upstream = new AbortController();
    res.on('close', () => upstream.abort());
    try {
      const answer = await fetch(`${target}${options.rewritePath ? options.rewritePath(req.url ?? '/') : (req.url ?? '/')}`, { method: req.method ?? 'GET', headers, ...(body ? { body } : {}), signal: upstream.signal });
      const outHeaders = Object.fromEntries([...answer.headers].filter(([n]) => n !== 'content-length' && n !== 'transfer-encoding'));
      if ((options.rewriteJson || options.replaceJson) && (answer.headers.get('content-type') ?? '').startsWith('application/json')) {
        const request = { method: req.method ?? 'GET', path, ...(body ? { body } : {}) };
        const text = await answer.text();
        const json: unknown = JSON.parse(text);
        const own = options.replaceJson?.(json, answer.status, request);
        if (own) {
          res.writeHead(own.status, { ...outHeaders, 'content-type': own.contentType }).end(own.text);
          return;
        }
        res.writeHead(answer.status, outHeaders).end(options.rewriteJson ? JSON.stringify(options.rewriteJson(json, answer.status, request)) : text);
        return;
      }
      res.writeHead(answer.status, outHeaders);
      if (answer.body) for await (const c of answer.body) res.write(c);
      res.end();
    } catch {
      res.destroy();
    }
  });
}

/** The request body as the proxy forwards it: rewritten when it is JSON and the proxy rewrites requests. */
function rewritten(body: Buffer, path: string, options: ProxyOptions): Buffer {
  if (!options.rewriteRequest) return body;
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    return body;
  }
  const out = options.rewriteRequest(json, path);
  return out === undefined ? body : Buffer.from(JSON.stringify(out));
}
