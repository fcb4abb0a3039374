// Test support: a proxy in front of the emulator that misbehaves only under load, that is for a
// request arriving while more than `beyond` requests are in flight through it (itself included),
// as gateways and servers are reported to under traffic. Each mode is one way.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startServer, type TestServer } from './httpTestServer.ts';

export const LOAD_PROXY_MODES = [
  // Each breaks the contract under load.
  'crossed', '500', 'cut', 'hung', 'html-429', 'usage-dropped', 'empty-200',
  // Issue 48: a refusal sent as a success, the error envelope in a 200's body (streamed requests too).
  'error-200',
  // Issue 47: streams under load handed to another request, usage in a stream only when asked; another model named under load.
  'streams-crossed', 'model-renamed',
  // Each is what the description allows.
  'queued', '429', '503',
] as const;
export type LoadProxyMode = (typeof LOAD_PROXY_MODES)[number];

export interface LoadProxy extends TestServer {
  /** Requests it misbehaved on (or, for `queued`, held back). */
  misbehaved(): number;
  /** The most requests it had in flight at once. */
  peak(): number;
}

/** What `model-renamed` names in answers under load: a model of another service. */
export const RENAMED_MODEL = 'gpt-4o-mini';

const ENVELOPE = (message: string, type: string, code: string) => JSON.stringify({ error: { message, type, code, param: null } });

/**
 * Starts the proxy on 127.0.0.1 in front of `target`. `beyond`: the requests in flight it still
 * serves as the target does (default 8). `crossed` hands each non-streamed chat answer under load
 * to another request waiting under load (two answers swapped). `streams-crossed` sends a stream's
 * usage only when the request asks `stream_options.include_usage` (as llama-server and LiteLLM do),
 * and swaps streams under load the same way. `model-renamed` names another model
 * (RENAMED_MODEL) in every chat answer under load, bodies and chunks.
 */
export async function startLoadProxy(target: string, mode: LoadProxyMode, beyond = 8): Promise<LoadProxy> {
  let inFlight = 0;
  let peak = 0;
  let misbehaved = 0;
  /** `queued`: requests waiting for a slot, in order. */
  const queue: (() => void)[] = [];
  /** `crossed`, `streams-crossed`: an answer held for the next request under load of its kind (a body, a stream), and the request it was meant for. */
  const held: Partial<Record<'body' | 'stream', { deliver(status: number, headers: Record<string, string>, body: string): void; own: { status: number; headers: Record<string, string>; body: string }; timer: NodeJS.Timeout; asked: string }>> = {};

  const server = await startServer(async (req, res) => {
    inFlight += 1;
    peak = Math.max(peak, inFlight);
    const loaded = inFlight > beyond;
    let counted = true;
    const done = () => {
      if (!counted) return;
      counted = false;
      inFlight -= 1;
      queue.shift()?.();
    };
    res.on('close', done);
    const body = await readBody(req);
    const path = (req.url ?? '/').split('?')[0]!;
    const chat = req.method === 'POST' && path.endsWith('/chat/completions');
    const streamed = chat && /"stream"\s*:\s*true/.test(body.toString('utf8'));
    const usageAsked = streamed && /"include_usage"\s*:\s*true/.test(body.toString('utf8'));
    if (loaded && chat) {
      switch (mode) {
        case '500':
          misbehaved += 1;
          return void res.writeHead(500, { 'content-type': 'application/json' }).end(ENVELOPE('overloaded', 'server_error', 'internal_error'));
        case 'hung':
          misbehaved += 1;
          return; // never answered: the client gives up
        case 'html-429':
          misbehaved += 1;
          return void res.writeHead(429, { 'content-type': 'text/html' }).end('<html><body><h1>429 Too Many Requests</h1></body></html>');
        case 'empty-200':
          misbehaved += 1;
          return void res.writeHead(200, { 'content-type': 'application/json' }).end();
        case 'error-200':
          misbehaved += 1;
          return void res.writeHead(200, { 'content-type': 'application/json' }).end(ENVELOPE('too many requests in flight', 'rate_limit_error', 'rate_limit_exceeded'));
        case '429':
          misbehaved += 1;
          return void res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' }).end(ENVELOPE('too many requests in flight', 'rate_limit_error', 'rate_limit_exceeded'));
        case '503':
          misbehaved += 1;
          return void res.writeHead(503, { 'content-type': 'application/json' }).end(ENVELOPE('overloaded', 'service_unavailable', 'overloaded'));
        case 'queued':
          misbehaved += 1;
          // Waits for a request ahead of it to end; this one no longer counts while it waits.
          inFlight -= 1;
          await new Promise<void>((resolve) => queue.push(resolve));
          inFlight += 1;
          break;
        default:
          break;
      }
    }
    const upstream = new AbortController();
    res.on('close', () => upstream.abort());
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([n]) => !['host', 'connection', 'content-length'].includes(n)).map(([n, v]) => [n, String(v)]));
    try {
      const answer = await fetch(`${target}${req.url ?? '/'}`, { method: req.method ?? 'GET', headers, ...(body.length > 0 ? { body } : {}), signal: upstream.signal });
      const out = Object.fromEntries([...answer.headers].filter(([n]) => n !== 'content-length' && n !== 'transfer-encoding'));
      // `streams-crossed`: usage only when asked, at rest too.
      if (mode === 'streams-crossed' && streamed && answer.status === 200) {
        const text = usageAsked ? await answer.text() : withoutUsageText(await answer.text(), true);
        return loaded ? crossed(res, answer.status, out, text, 'stream', body.toString('utf8')) : void res.writeHead(answer.status, out).end(text);
      }
      if (!loaded || !chat || answer.status !== 200 || mode === 'queued') return await pipe(answer, res, out);
      if (mode === 'crossed' && !streamed) return crossed(res, answer.status, out, await answer.text(), 'body', body.toString('utf8'));
      if (mode === 'model-renamed') {
        misbehaved += 1;
        return void res.writeHead(answer.status, out).end((await answer.text()).replace(/"model"\s*:\s*"[^"]*"/g, `"model":${JSON.stringify(RENAMED_MODEL)}`));
      }
      if (mode === 'cut' && streamed) {
        misbehaved += 1;
        return await cut(answer, res, out);
      }
      if (mode === 'usage-dropped') {
        misbehaved += 1;
        return await withoutUsage(answer, res, out, streamed);
      }
      await pipe(answer, res, out);
    } catch {
      res.destroy();
    }
  });

  function crossed(res: ServerResponse, status: number, headers: Record<string, string>, body: string, kind: 'body' | 'stream', asked: string): void {
    const deliver = (s: number, h: Record<string, string>, b: string) => void res.writeHead(s, h).end(b);
    // Two answers to the same request (a prompt sent again) swapped are no crossing anyone could see: it keeps its own.
    if (held[kind] !== undefined && held[kind].asked === asked) return deliver(status, headers, body);
    if (held[kind] === undefined) {
      // The first waits a little for another answer to swap with, then takes its own.
      const timer = setTimeout(() => {
        const h = held[kind];
        delete held[kind];
        h?.deliver(h.own.status, h.own.headers, h.own.body);
      }, 300);
      held[kind] = { deliver, own: { status, headers, body }, timer, asked };
      return;
    }
    const other = held[kind];
    delete held[kind];
    clearTimeout(other.timer);
    misbehaved += 2;
    other.deliver(status, headers, body);
    deliver(other.own.status, other.own.headers, other.own.body);
  }

  return { ...server, misbehaved: () => misbehaved, peak: () => peak };
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

async function pipe(answer: Response, res: ServerResponse, headers: Record<string, string>): Promise<void> {
  res.writeHead(answer.status, headers);
  if (answer.body) for await (const c of answer.body) res.write(c);
  res.end();
}

/** A stream that stops after its first two events: no finish_reason, no `[DONE]`, the body simply ends. */
async function cut(answer: Response, res: ServerResponse, headers: Record<string, string>): Promise<void> {
  res.writeHead(answer.status, headers);
  const text = await answer.text();
  const events = text.split('\n\n').filter((e) => e.trim() !== '');
  res.end(`${events.slice(0, 2).join('\n\n')}\n\n`);
}

/** The answer without `usage`: in a body, and in each chunk of a stream. */
async function withoutUsage(answer: Response, res: ServerResponse, headers: Record<string, string>, streamed: boolean): Promise<void> {
  res.writeHead(answer.status, headers).end(withoutUsageText(await answer.text(), streamed));
}

function withoutUsageText(text: string, streamed: boolean): string {
  const strip = (json: string) => {
    try {
      const o = JSON.parse(json) as Record<string, unknown>;
      delete o.usage;
      return JSON.stringify(o);
    } catch {
      return json;
    }
  };
  return streamed ? text.replace(/^data: (\{.*\})$/gm, (_, json: string) => `data: ${strip(json)}`) : strip(text);
}
