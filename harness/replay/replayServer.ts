import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { getResponse, http, HttpResponse, type RequestHandler } from 'msw';
import type { RecordedEvent } from '#harness/core/exchange.ts';
import { NOT_CAPTURED_HEADER } from '#harness/core/notCaptured.ts';
import { bodyHash, canonicalBody, readFixture, type AuthForm, type FixtureExchange, type FixtureManifest } from './fixtureFormat.ts';

/** The keys a replayed run sends: index i stands for the recording's secret i. */
export const REPLAY_KEYS = ['sk-replay-key-0', 'sk-replay-key-1'] as const;

/** Status of the answer to a request nothing was recorded for (outside what any real server sends). */
export const NOT_RECORDED_STATUS = 599;

/** Fallback matches need this share of the body in common (prefix + suffix) with the recording. */
const SIMILARITY = 0.8;

export interface ReplayServer {
  url: string;
  manifest: FixtureManifest;
  close(): Promise<void>;
}

interface Incoming {
  method: string;
  path: string;
  secret: number | null;
  auth: AuthForm;
  canonical: string;
}

/**
 * Matching, in recording order. A request matches the exchanges with its method, path (query
 * included), key index and canonical body; repeated requests take them in turn (the last one
 * answers again once they are used up). A request whose body matches nothing recorded (a check's
 * random marker or cache salt) falls back to the recorded group with the same method, path and
 * key whose canonical body is most alike (common prefix + suffix >= 80% of the longer one), and
 * keeps that group from then on. Anything else is not recorded. An exchange whose key names an
 * auth form answers only requests carrying their credential that way. With `exactOnly` (a set built
 * from captures) there is no fallback: a capture answers only the very request it was paired with.
 */
export class Matcher {
  readonly #groups = new Map<string, { canonical: string; auth?: AuthForm; exchanges: FixtureExchange[]; served: number; taken: boolean }>();
  readonly #aliases = new Map<string, string>();
  readonly #exactOnly: boolean;

  constructor(exchanges: readonly FixtureExchange[], options: { exactOnly?: boolean } = {}) {
    this.#exactOnly = options.exactOnly === true;
    for (const fx of exchanges) {
      const id = groupId(fx.key.method, fx.key.path, fx.key.secret, fx.key.bodyHash) + (fx.key.auth ? ` ${fx.key.auth}` : '');
      const group = this.#groups.get(id) ?? { canonical: canonicalBody(fx.request), ...(fx.key.auth ? { auth: fx.key.auth } : {}), exchanges: [], served: 0, taken: false };
      group.exchanges.push(fx);
      this.#groups.set(id, group);
    }
  }

  match(req: Incoming): FixtureExchange | undefined {
    const prefix = groupId(req.method, req.path, req.secret, '');
    const own = prefix + bodyHash(req.canonical);
    const withAuth = `${own} ${req.auth}`;
    let id = this.#groups.has(withAuth) ? withAuth : this.#groups.has(own) ? own : this.#aliases.get(own);
    if (id === undefined) {
      if (this.#exactOnly) return undefined;
      let best: { id: string; score: number } | undefined;
      for (const [gid, g] of this.#groups) {
        if (!gid.startsWith(prefix) || g.taken || g.auth !== undefined) continue;
        const score = similarity(g.canonical, req.canonical);
        if (score >= SIMILARITY && (best === undefined || score > best.score)) best = { id: gid, score };
      }
      if (best === undefined) return undefined;
      id = best.id;
      this.#aliases.set(own, id);
    }
    const group = this.#groups.get(id)!;
    group.taken = true;
    const fx = group.exchanges[Math.min(group.served, group.exchanges.length - 1)];
    group.served += 1;
    return fx;
  }
}

function groupId(method: string, path: string, secret: number | null, hash: string): string {
  return `${method} ${path} ${secret ?? '-'} ${hash}`;
}

function similarity(a: string, b: string): number {
  const longest = Math.max(a.length, b.length);
  if (longest === 0) return 1;
  const shortest = Math.min(a.length, b.length);
  let p = 0;
  while (p < shortest && a[p] === b[p]) p += 1;
  let s = 0;
  while (s < shortest - p && a[a.length - 1 - s] === b[b.length - 1 - s]) s += 1;
  return (p + s) / longest;
}

/** An SSE event as bytes on the wire; a recorded comment (`:...`) is written back as one. */
function sseFrame(e: RecordedEvent): string {
  if (e.data.startsWith(':')) return `${e.data}\n\n`;
  return `${e.event !== undefined ? `event: ${e.event}\n` : ''}${e.data.split('\n').map((line) => `data: ${line}`).join('\n')}\n\n`;
}

function recordedResponse(fx: FixtureExchange, fast: boolean): Response {
  const r = fx.response;
  if (!r) return HttpResponse.error();
  const headers = new Headers(Object.entries(r.headers).filter(([name]) => name.toLowerCase() !== 'content-encoding'));
  const nullBody = r.status === 204 || r.status === 304 || r.status < 200;
  if (nullBody) return new HttpResponse(null, { status: r.status, headers });
  if (r.events) {
    const events = r.events;
    const encoder = new TextEncoder();
    const stream = new ReadableStream<Uint8Array>({
      async start(controller) {
        const started = performance.now();
        for (const e of events) {
          const wait = fast ? 0 : started + e.at - performance.now();
          if (wait > 0) await delay(wait);
          controller.enqueue(encoder.encode(sseFrame(e)));
        }
        controller.close();
      },
    });
    return new HttpResponse(stream, { status: r.status, headers });
  }
  const text = r.body !== undefined ? JSON.stringify(r.body) : (r.text ?? '');
  return new HttpResponse(text, { status: r.status, headers });
}

function notRecorded(req: Incoming, partial: boolean): Response {
  const what = `${req.method} ${req.path}${req.canonical ? ` (body hash ${bodyHash(req.canonical)})` : ''}${req.secret === null ? ' without the key' : req.secret === 1 ? ' with the empty-balance key' : ''}`;
  return HttpResponse.json(
    { error: { message: `no recording for ${what}`, type: 'fixture_not_found', code: 'fixture_not_found' } },
    { status: NOT_RECORDED_STATUS, ...(partial ? { headers: { [NOT_CAPTURED_HEADER]: what } } : {}) },
  );
}

function authForm(request: Request): AuthForm {
  const auth = request.headers.get('authorization');
  if (auth === null) return request.headers.get('x-api-key') === null ? 'none' : 'bearer';
  return /^Bearer\s+\S+$/i.test(auth) ? 'bearer' : 'malformed';
}

/**
 * The MSW handlers of a recording: one resolving recorded exchanges, then one answering "not
 * recorded". `partial` (a set built from captures): exact matches only, and the "not recorded"
 * answer carries NOT_CAPTURED_HEADER, so the run skips that check instead of failing it.
 */
export function replayHandlers(exchanges: readonly FixtureExchange[], options: { fast?: boolean; partial?: boolean } = {}): RequestHandler[] {
  const partial = options.partial === true;
  const matcher = new Matcher(exchanges, { exactOnly: partial });
  const incoming = async (request: Request): Promise<Incoming> => {
    const url = new URL(request.url);
    const raw = await request.clone().text();
    let canonical = '';
    if (raw !== '') {
      try {
        canonical = canonicalBody({ body: JSON.parse(raw) as unknown });
      } catch {
        canonical = canonicalBody({ rawBody: raw });
      }
    }
    const auth = `${request.headers.get('authorization') ?? ''} ${request.headers.get('x-api-key') ?? ''}`;
    const secret = REPLAY_KEYS.findIndex((k) => auth.includes(k));
    return { method: request.method, path: `${url.pathname}${url.search}`, secret: secret >= 0 ? secret : null, auth: authForm(request), canonical };
  };
  return [
    http.all('*', async ({ request }) => {
      const fx = matcher.match(await incoming(request));
      return fx ? recordedResponse(fx, options.fast === true) : undefined;
    }),
    http.all('*', async ({ request }) => notRecorded(await incoming(request), partial)),
  ];
}

/**
 * A loopback node:http server answering from a recording: each request becomes a fetch Request,
 * resolved by the MSW handlers (`getResponse`), so the client's code path is the live one.
 * Nothing is forwarded anywhere.
 */
export async function startReplayServer(dir: string, options: { fast?: boolean } = {}): Promise<ReplayServer> {
  const { manifest, exchanges } = readFixture(dir);
  const handlers = replayHandlers(exchanges, { ...options, partial: manifest.coverage === 'partial' });
  const server = createServer((req, res) => {
    answer(req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`replay server error: ${err instanceof Error ? err.message : String(err)}`);
    });
  });
  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    const request = new Request(`http://${req.headers.host ?? '127.0.0.1'}${req.url ?? '/'}`, {
      method: req.method ?? 'GET',
      headers,
      ...(body.length > 0 && req.method !== 'GET' && req.method !== 'HEAD' ? { body } : {}),
    });
    const response = await getResponse(handlers, request);
    if (!response || response.type === 'error') {
      req.socket.destroy();
      return;
    }
    const out: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      out[name] = value;
    });
    res.writeHead(response.status, out);
    if (response.body) for await (const chunk of response.body) res.write(chunk);
    res.end();
  }
  await new Promise<void>((resolvePromise) => server.listen(0, '127.0.0.1', resolvePromise));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    manifest,
    close: () =>
      new Promise<void>((resolvePromise) => {
        server.closeAllConnections();
        server.close(() => resolvePromise());
      }),
  };
}
