// Test support: a proxy in front of the emulator that takes something away from the answers of one
// spec object (a JSON body, or every chunk of a stream), chosen per request by a header, so one proxy
// serves several runs at once, each breaking its own place.
import { serveFetch, type FetchServer } from '#harness/core/http/fetchBridge.ts';
import { MESSAGES_BASE_PATH, MESSAGES_PATH } from '#harness/core/messagesPaths.ts';
import { SseFold, sseFrame } from '#harness/core/sseFold.ts';
import { isUnspecified, type Spec } from '#harness/spec/model.ts';
import { forward, rewrittenJson } from './forwarded.ts';

/** The request header naming the mutation (a run sends it with `--header`); the proxy does not forward it. */
export const MUTATION_HEADER = 'x-svc-mutation';

/** What a mutation rewrites: answers of `object`, each changed in place by `rewrite` (true when it changed something). */
export interface Mutator {
  object: string;
  rewrite(answer: unknown): boolean;
}

export interface MutatingProxy extends FetchServer {
  /** How many answers (bodies, or chunks of a stream) the mutation named `key` changed. */
  changed(key: string): number;
}

interface Route {
  method: string;
  path: string;
  ok?: string;
  chunk?: string;
}

/** Where each endpoint is served (every base it is under) and the object it answers with, from the spec. */
function routesOf(spec: Spec): Route[] {
  const basePath = (key: string): string => {
    const b = spec.bases[key]!;
    if (isUnspecified(b.path)) return MESSAGES_BASE_PATH;
    return `${b.relative_to ? basePath(b.relative_to) : ''}${b.path}`;
  };
  return Object.values(spec.endpoints).flatMap((ep) =>
    ep.bases.map((base) => {
      const path = `${basePath(base)}${isUnspecified(ep.path) ? MESSAGES_PATH : ep.path}`;
      return { method: ep.method, path, ...(ep.responses['200'] ? { ok: ep.responses['200'] } : {}), ...(ep.stream ? { chunk: ep.stream.chunk } : {}) };
    }),
  );
}

/** The spec object an answer is: an endpoint's success body or stream chunk, or the error envelope. */
function objectOf(spec: Spec, routes: readonly Route[], method: string, path: string, status: number, stream: boolean): string | undefined {
  if (status >= 400) return spec.errors.envelope.object;
  const route = routes.find((r) => r.method === method && r.path === path);
  return status === 200 ? (stream ? route?.chunk : route?.ok) : undefined;
}

/**
 * Starts the proxy on 127.0.0.1 in front of `target`. A request naming a mutation of `mutations`
 * (MUTATION_HEADER) has its answer rewritten where the answer is that mutation's object; any other
 * answer, and every request without the header, passes as it came.
 */
export async function startMutatingProxy(spec: Spec, target: string, mutations: ReadonlyMap<string, Mutator>): Promise<MutatingProxy> {
  const routes = routesOf(spec);
  const counts = new Map<string, number>();
  const count = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
  const handle = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const key = request.headers.get(MUTATION_HEADER) ?? undefined;
    const forwarded = await forward(request, target, MUTATION_HEADER);
    const { answer, headers: out } = forwarded;
    const mutator = key === undefined ? undefined : mutations.get(key);
    const stream = (answer.headers.get('content-type') ?? '').includes('event-stream');
    if (!mutator || objectOf(spec, routes, request.method, url.pathname, answer.status, stream) !== mutator.object || !answer.body) return new Response(answer.body, { status: answer.status, headers: out });
    const rewrite = (value: unknown): unknown => {
      if (mutator.rewrite(value)) count(key!);
      return value;
    };
    if (stream) return new Response(answer.body.pipeThrough(chunkRewriter(rewrite)), { status: answer.status, headers: out });
    return rewrittenJson(forwarded, (parsed) => JSON.stringify(rewrite(parsed)));
  };
  const server = await serveFetch(handle, { failure: (e) => new Response(JSON.stringify({ error: { message: String(e), type: 'proxy_error' } }), { status: 502 }) });
  return { ...server, changed: (key) => counts.get(key) ?? 0 };
}

/** Every data event of a stream that holds JSON, rewritten as it passes (comments, `[DONE]` and the rest as they came). */
function chunkRewriter(rewrite: (chunk: unknown) => unknown): TransformStream<Uint8Array, Uint8Array> {
  const encoder = new TextEncoder();
  let out: string[] = [];
  const fold = new SseFold((e) => {
    let data = e.data;
    if (e.kind === 'data') {
      try {
        data = JSON.stringify(rewrite(JSON.parse(e.data)));
      } catch {
        data = e.data;
      }
    }
    out.push(sseFrame(e.event === undefined ? { data } : { data, event: e.event }));
  });
  const flush = (controller: TransformStreamDefaultController<Uint8Array>) => {
    if (out.length > 0) controller.enqueue(encoder.encode(out.join('')));
    out = [];
  };
  return new TransformStream({
    transform(bytes, controller) {
      fold.feedBytes(bytes);
      flush(controller);
    },
    flush(controller) {
      fold.end();
      flush(controller);
    },
  });
}
