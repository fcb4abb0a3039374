import { isUnspecified, type Spec } from '#harness/spec/model.ts';
import { setTimeout as delay } from 'node:timers/promises';
import { prng, seedFrom } from './generate/prng.ts';
import { CHOICES, refusal, serviceRefusal } from './choices.ts';
import type { EmulatorContext } from './context.ts';
import { authenticate } from './auth.ts';
import { asMessagesError } from './http/messagesError.ts';
import { refusalResponse } from './http/refusal.ts';
import { userBalance } from './routes/balance.ts';
import { chatCompletions, EXTRA_FIELD } from './routes/chat.ts';
import { fimCompletions } from './routes/fim.ts';
import { messages } from './routes/messages.ts';
import { listModels } from './routes/models.ts';
import type { RouteInput } from './routes/request.ts';
import { isRecord } from '#harness/core/isRecord.ts';

type Handler = (input: RouteInput, release: () => void) => Response | Promise<Response>;

/** One handler per endpoint of the spec; an endpoint the spec adds without a handler stops start-up. */
const HANDLERS: Record<string, Handler> = {
  list_models: (input, release) => (release(), listModels(input)),
  user_balance: (input, release) => (release(), userBalance(input)),
  chat_completions: chatCompletions,
  fim_completions: fimCompletions,
  messages,
};

interface Route {
  method: string;
  path: string;
  base: string;
  endpoint: string;
  handler: Handler;
}

export function basePath(spec: Spec, base: string): string {
  const b = spec.bases[base];
  if (!b) throw new Error(`no base ${base} in the spec`);
  return isUnspecified(b.path) ? CHOICES.messagesBasePath : b.path;
}

/** Every endpoint on every base the spec serves it under. */
/** Faults that leave a route out: the emulator then answers it as a path that does not exist. */
function notServed(ctx: EmulatorContext, endpoint: string, base: string): boolean {
  return (
    (base === 'beta' && ctx.fault('beta-not-served')) ||
    (endpoint === 'user_balance' && ctx.fault('balance-not-served')) ||
    (endpoint === 'list_models' && ctx.fault('models-not-served')) ||
    (endpoint === 'messages' && ctx.fault('messages-not-served')) ||
    (endpoint === 'chat_completions' && base === 'base_url' && ctx.fault('chat-not-served'))
  );
}

export function routesOf(ctx: EmulatorContext): Route[] {
  const { spec } = ctx;
  const routes: Route[] = [];
  for (const [endpoint, ep] of Object.entries(spec.endpoints)) {
    const handler = HANDLERS[endpoint];
    if (!handler) throw new Error(`the emulator has no handler for endpoint \`${endpoint}\` of the spec`);
    const path = isUnspecified(ep.path) ? CHOICES.messagesPath : ep.path;
    const bases = endpoint === 'fim_completions' && ctx.fault('fim-outside-beta') ? [...ep.bases, 'base_url'] : ep.bases;
    for (const base of bases) {
      if (base === 'v1' && ctx.fault('v1-missing')) continue;
      if (notServed(ctx, endpoint, base)) continue;
      routes.push({ method: ep.method, path: basePath(spec, base) + path, base, endpoint, handler });
    }
  }
  return routes;
}

/** The emulator as a function of a Request: no sockets, so tests can call it directly too. */
export function createApp(ctx: EmulatorContext): (req: Request) => Promise<Response> {
  const routes = routesOf(ctx);
  const { spec } = ctx;
  const messagesBase = basePath(spec, 'messages_base_url');
  const { latencyMs = 0, latencyJitterMs = 0 } = ctx.options;
  const jitter = prng(seedFrom(ctx.options.seed ?? 0, 'latency'));
  /** `load-no-recovery`: once more than its threshold were in flight, nothing is served again. */
  let overloaded = false;
  return async (req) => {
    // In flight from arrival until answered: the route's release ends a request it serves, else the finally.
    const answered = ctx.inFlight.enter();
    let served = false;
    try {
      // A far endpoint's round trip, before anything is answered (a 404 and a 401 wait too).
      if (latencyMs + latencyJitterMs > 0) await delay(latencyMs + jitter.int(0, latencyJitterMs));
      const url = new URL(req.url);
      const pathname = url.pathname.replace(/\/+$/, '') || '/';
      const route = routes.find((r) => r.method === req.method && r.path === pathname);
      // Every error answered under {messages_base_url} is in that format's shape (http/messagesError.ts).
      const onMessagesBase = route ? route.base === 'messages_base_url' : messagesBase !== '' && pathname.startsWith(`${messagesBase}/`);
      const finish = async (response: Response) => finishResponse(ctx, onMessagesBase ? await asMessagesError(ctx, response) : response);
      if (!route) {
        return finish(refusalResponse(refusal(spec, CHOICES.unknownPathStatus, `no endpoint at ${req.method} ${pathname}`, 'not_found')));
      }
      if (ctx.options.maintenance) {
        return finish(refusalResponse(serviceRefusal(spec, 503)));
      }
      const auth = authenticate(ctx, req, route.base === 'messages_base_url');
      if ('status' in auth) return finish(refusalResponse(auth));
      if (ctx.underLoad('load-requests-hung')) return await hung(req.signal);
      if (ctx.underLoad('load-excess-500')) return finish(refusalResponse(serviceRefusal(spec, 500, { message: 'internal error: overloaded' })));
      if (ctx.underLoad('load-no-recovery')) overloaded = true;
      if (overloaded) return finish(refusalResponse(serviceRefusal(spec, 429, { message: 'overloaded since the peak' })));
      const releaseKey = ctx.limiter.tryAcquire(auth.key);
      if (!releaseKey) {
        return finish(refusalResponse(serviceRefusal(spec, 429)));
      }
      const releaseSlot = await admitted(ctx, req.signal);
      if (releaseSlot === 'full' || releaseSlot === 'gone') {
        releaseKey();
        // The client that left while it waited gets nothing: its connection is gone.
        return releaseSlot === 'gone' ? Response.error() : finish(refusalResponse(serviceRefusal(spec, 429, { message: AT_CAPACITY })));
      }
      // Held by a JSON answer until it is made, by a stream until its last event or the client leaving.
      const release = () => {
        releaseKey();
        releaseSlot();
        answered();
      };
      served = true;
      try {
        return await finish(await route.handler({ ctx, req, url, base: route.base, key: auth.key }, release));
      } catch (err) {
        release();
        // A bug of the emulator still answers with the envelope: a 500, as the error table says.
        return finish(refusalResponse(serviceRefusal(spec, 500, { message: `internal error: ${(err as Error).message}` })));
      }
    } finally {
      if (!served) answered();
    }
  };
}

/** The 429's words when the service, not the key, is full. */
const AT_CAPACITY = 'the service is at capacity: too many requests in flight; retry later';

/**
 * A slot of the service's capacity when it has one (a release function, at once or after waiting
 * in its queue), 'full' when its queue is full, 'gone' when the client left while it waited.
 */
async function admitted(ctx: EmulatorContext, signal: AbortSignal): Promise<(() => void) | 'full' | 'gone'> {
  if (!ctx.capacity) return () => undefined;
  const slot = ctx.capacity.acquire(signal);
  if (!slot) return 'full';
  return (await slot) ?? 'gone';
}

/**
 * The `load-requests-hung` fault: no answer at all, not even headers, for as long as the client
 * waits. When it leaves (the request's signal aborts), the request ends as a network error and
 * stops counting as in flight.
 */
function hung(signal: AbortSignal): Promise<Response> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve(Response.error());
    else signal.addEventListener('abort', () => resolve(Response.error()), { once: true });
  });
}

/** Faults that rewrite whole JSON bodies (`extra-fields`, `error-envelope-flat`); otherwise responses pass as they are. */
async function finishResponse(ctx: EmulatorContext, response: Response): Promise<Response> {
  // A server's Date is its own clock: the emulator's, which a test may set (`now`).
  response.headers.set('date', ctx.now().toUTCString());
  const json = (response.headers.get('content-type') ?? '').startsWith('application/json');
  if (ctx.fault('extra-fields') && json && response.status < 400) {
    const body = (await response.json()) as unknown;
    const extended = isRecord(body) ? { ...body, ...EXTRA_FIELD } : body;
    return new Response(JSON.stringify(extended), { status: response.status, headers: response.headers });
  }
  if (ctx.fault('extra-fields') && json && response.status >= 400 && !ctx.fault('error-envelope-flat')) {
    const body = (await response.json()) as Record<string, unknown>;
    return new Response(JSON.stringify({ ...body, ...EXTRA_FIELD }), { status: response.status, headers: response.headers });
  }
  if (ctx.fault('error-code-number') && json && response.status >= 400) {
    const body = (await response.json()) as { error?: Record<string, unknown> };
    return new Response(JSON.stringify({ ...body, error: { ...body.error, code: response.status } }), { status: response.status, headers: response.headers });
  }
  if (!ctx.fault('error-envelope-flat') || response.status < 400) return response;
  const body = (await response.json()) as { error?: { message?: string } };
  return new Response(JSON.stringify({ message: body.error?.message ?? '' }), { status: response.status, headers: response.headers });
}
