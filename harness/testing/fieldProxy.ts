// Test support: a proxy in front of the emulator that answers the way a server or gateway of a
// reported bug does (docs/field.md). Each request names its class by a header, so one proxy serves
// several runs at once, each breaking (or reshaping) its answers its own way.
import { serveFetch, type FetchServer } from '#harness/core/http/fetchBridge.ts';
import { foldSse, sseFrame } from '#harness/core/sseFold.ts';
import { forward, rewrittenJson } from './forwarded.ts';

/** The request header naming the class (a run sends it with `--header`); the proxy does not forward it. */
export const FIELD_CLASS_HEADER = 'x-svc-field-class';

/** How one class reshapes answers: a JSON body (any status), or a whole stream's chunks. */
export interface FieldClass {
  /** The body to answer instead of `body` (the same object, changed in place, will do), knowing the JSON request it answers; called for JSON answers. */
  body?(body: unknown, status: number, request: unknown): unknown;
  /** The chunks to send instead of `chunks`, in order (the stream is read whole first; `[DONE]` and comments stay where they were). */
  stream?(chunks: unknown[]): unknown[];
}

export interface FieldProxy extends FetchServer {
  /** How many answers (bodies or streams) the class named `key` changed. */
  changed(key: string): number;
}

/** Starts the proxy on 127.0.0.1 in front of `target`; a request naming no class of `classes` passes as it came. */
export async function startFieldProxy(target: string, classes: ReadonlyMap<string, FieldClass>): Promise<FieldProxy> {
  const counts = new Map<string, number>();
  const handle = async (request: Request): Promise<Response> => {
    const key = request.headers.get(FIELD_CLASS_HEADER) ?? undefined;
    const forwarded = await forward(request, target, FIELD_CLASS_HEADER);
    const { answer, sent, headers: out } = forwarded;
    const fieldClass = key === undefined ? undefined : classes.get(key);
    const type = answer.headers.get('content-type') ?? '';
    const counted = (before: string, after: string): string => {
      if (after !== before) counts.set(key!, (counts.get(key!) ?? 0) + 1);
      return after;
    };
    if (fieldClass?.stream && type.includes('event-stream')) {
      const text = await answer.text();
      return new Response(counted(restream(text, (c) => c), restream(text, fieldClass.stream)), { status: answer.status, headers: out });
    }
    const reshape = fieldClass?.body;
    if (reshape && type.startsWith('application/json')) {
      return rewrittenJson(forwarded, (parsed) => {
        const before = JSON.stringify(parsed);
        return counted(before, JSON.stringify(reshape(parsed, answer.status, jsonOf(sent))));
      });
    }
    return new Response(answer.body, { status: answer.status, headers: out });
  };
  const server = await serveFetch(handle, { failure: (e) => new Response(JSON.stringify({ error: { message: String(e), type: 'proxy_error' } }), { status: 502 }) });
  return { ...server, changed: (key) => counts.get(key) ?? 0 };
}

/** A request body as JSON, or undefined when there is none or it is not JSON. */
function jsonOf(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The stream's text with its JSON data events replaced by `rewrite`'s chunks, put where the first of them stood. */
function restream(text: string, rewrite: (chunks: unknown[]) => unknown[]): string {
  const { events } = foldSse(text);
  const chunks: unknown[] = [];
  const frames: (string | undefined)[] = [];
  for (const e of events) {
    if (e.kind === 'data') {
      try {
        chunks.push(JSON.parse(e.data));
        frames.push(undefined);
        continue;
      } catch {
        // not JSON: kept as it came
      }
    }
    frames.push(sseFrame(e.event === undefined ? { data: e.data } : { data: e.data, event: e.event }));
  }
  const rewritten = rewrite(chunks).map((c) => sseFrame({ data: JSON.stringify(c) })).join('');
  const at = frames.indexOf(undefined);
  const kept = frames.filter((f): f is string => f !== undefined);
  if (at < 0) return kept.join('') + rewritten;
  // Every chunk stood before the first frame kept after them ([DONE], as a stream has it).
  const before = frames.slice(0, at).filter((f): f is string => f !== undefined);
  return [...before, rewritten, ...kept.slice(before.length)].join('');
}
