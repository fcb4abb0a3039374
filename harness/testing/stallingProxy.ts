// Test support: a proxy in front of another server (the emulator) that makes the harness wait, as
// a gateway does: a refusal asking to be waited out (429 with Retry-After), or a body that starts
// and never ends. `decide` says, for each request, whether to stall it and how; the rest is forwarded.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startServer, type TestServer } from './httpTestServer.ts';

/**
 * A refusal with its Retry-After; a refusal sent as a success (`error-200`: the error envelope in a
 * 200's body, no Retry-After); or a body that sends its headers and a first piece, then nothing more.
 */
export type Stall = { kind: 'refuse'; status: 429 | 503; retryAfter: string } | { kind: 'error-200' } | { kind: 'trickle' };

/** What `decide` knows of a request. */
export interface Arriving {
  method: string;
  path: string;
  /** 1 for the first request the proxy got. */
  n: number;
  /** Requests in flight through the proxy, this one included. */
  inFlight: number;
  /** A request of the load phase (its prompt says so: checks/load/drive.ts). */
  load: boolean;
  /** It asks for a stream (`"stream": true`). */
  stream: boolean;
  /** The load phase reached more than 8 in flight once (its peak, at --load 16). */
  peaked: boolean;
}

export interface StallingProxy extends TestServer {
  /** Requests it got, and how many it stalled. */
  requests(): number;
  stalled(): number;
  /** performance.now() of the last request it got. */
  lastRequestAt(): number;
  /** Resolves once a request has been stalled (the harness is waiting on it now). */
  firstStall: Promise<void>;
}

const ENVELOPE = JSON.stringify({ error: { message: 'too many requests: wait', type: 'rate_limit_error', code: 'rate_limit_exceeded', param: null } });

export async function startStallingProxy(target: string, decide: (r: Arriving) => Stall | undefined): Promise<StallingProxy> {
  let n = 0;
  let inFlight = 0;
  let stalled = 0;
  let last = 0;
  let peaked = false;
  let stallSeen!: () => void;
  const firstStall = new Promise<void>((done) => (stallSeen = done));
  const open = new Set<ServerResponse>();
  const server = await startServer(async (req, res) => {
    n += 1;
    last = performance.now();
    inFlight += 1;
    let counted = true;
    res.on('close', () => {
      if (counted) inFlight -= 1;
      counted = false;
      open.delete(res);
    });
    const body = await readBody(req);
    const text = body.toString('utf8');
    const load = text.includes('Load probe');
    const stream = /"stream"\s*:\s*true/.test(text);
    if (load && inFlight > 8) peaked = true;
    const path = (req.url ?? '/').split('?')[0]!;
    const stall = decide({ method: req.method ?? 'GET', path, n, inFlight, load, stream, peaked });
    if (stall !== undefined) {
      stalled += 1;
      stallSeen();
      if (stall.kind === 'refuse') return void res.writeHead(stall.status, { 'content-type': 'application/json', 'retry-after': stall.retryAfter }).end(ENVELOPE);
      if (stall.kind === 'error-200') return void res.writeHead(200, { 'content-type': 'application/json' }).end(ENVELOPE);
      open.add(res);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"id":"chatcmpl-stalled","object":"chat.completion","choices":[');
      return; // never ended: the harness reads a body that does not come
    }
    await forward(target, req, body, res);
  });
  return {
    ...server,
    close: async () => {
      for (const r of open) r.destroy();
      await server.close();
    },
    requests: () => n,
    stalled: () => stalled,
    lastRequestAt: () => last,
    firstStall,
  };
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

async function forward(target: string, req: IncomingMessage, body: Buffer, res: ServerResponse): Promise<void> {
  const upstream = new AbortController();
  res.on('close', () => upstream.abort());
  const headers = Object.fromEntries(Object.entries(req.headers).filter(([n]) => !['host', 'connection', 'content-length'].includes(n)).map(([n, v]) => [n, String(v)]));
  try {
    const answer = await fetch(`${target}${req.url ?? '/'}`, { method: req.method ?? 'GET', headers, ...(body.length > 0 ? { body } : {}), signal: upstream.signal });
    res.writeHead(answer.status, Object.fromEntries([...answer.headers].filter(([n]) => n !== 'content-length' && n !== 'transfer-encoding')));
    if (answer.body) for await (const c of answer.body) res.write(c);
    res.end();
  } catch {
    res.destroy();
  }
}
