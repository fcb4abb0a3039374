import { deepEqual } from '#harness/core/deepEqual.ts';
import { isRecord } from '#harness/core/isRecord.ts';
import { jsonOf } from '#harness/core/parsesAsJson.ts';
import { foldSse } from '#harness/core/sseFold.ts';
import { unmarked } from '#harness/core/marker.ts';

/**
 * What a gateway changed between the two sides of one exchange, as facts: a request parameter the
 * client sent and the upstream did not get (`dropped`) or got with another value (`replaced`), one
 * the gateway added (`added`), a usage number of the upstream's answer that reached the client
 * otherwise. Whether a change is a failure, and at what strength, is the checks' to say.
 */
export interface Difference {
  kind: 'dropped' | 'replaced' | 'added';
  /** Dotted: `temperature`, `usage.prompt_tokens`. */
  path: string;
  client?: unknown;
  upstream?: unknown;
}

/**
 * The client's request against what the upstream received (each a JSON body), top-level field by
 * field; the marker is taken out of both first. `model` is left out: the gateway maps it, and the
 * report states the mapping instead.
 */
export function requestDifferences(client: unknown, upstream: unknown): Difference[] {
  const [c, u] = [unmarked(client), unmarked(upstream)];
  if (!isRecord(c) || !isRecord(u)) return [];
  const out: Difference[] = [];
  for (const [name, value] of Object.entries(c)) {
    if (name === 'model' || value === undefined) continue;
    if (!(name in u)) out.push({ kind: 'dropped', path: name, client: value });
    else if (!deepEqual(value, u[name])) out.push({ kind: 'replaced', path: name, client: value, upstream: u[name] });
  }
  for (const [name, value] of Object.entries(u)) if (name !== 'model' && !(name in c)) out.push({ kind: 'added', path: name, upstream: value });
  return out;
}

/** The usage numbers an answer reports (a body, or the last chunk of a stream that carries usage), by field. */
export const usageOf = (answer: string): Record<string, number> | undefined => answerFacts(answer).usage;

/**
 * The usage the client was told against the usage the upstream reported (what is billed): each
 * number the upstream gave that reached the client otherwise or not at all.
 */
export function usageDifferences(clientAnswer: string, upstreamAnswer: string): Difference[] {
  const [c, u] = [usageOf(clientAnswer), usageOf(upstreamAnswer)];
  if (u === undefined) return [];
  return Object.entries(u).flatMap(([name, value]): Difference[] => {
    const told = c?.[name];
    if (told === undefined) return [{ kind: 'dropped', path: `usage.${name}`, upstream: value }];
    return told === value ? [] : [{ kind: 'replaced', path: `usage.${name}`, client: told, upstream: value }];
  });
}


/** What an answer says, whichever way it came (a body, or a stream put together): what a gateway must pass on as it was. */
export interface AnswerFacts {
  content?: string;
  reasoning_content?: string;
  tool_calls: { id?: string; name?: string; arguments?: string }[];
  finish_reason?: unknown;
  logprobs?: unknown;
  /** What carries no meaning, which a gateway may rewrite: shown, never judged. */
  incidental: Record<string, unknown>;
  /** The top-level fields of the body or of any chunk. */
  fields: Set<string>;
  /** The usage numbers, by field: the body's, or the last chunk's that carries usage. */
  usage?: Record<string, number>;
  /** False for a body that is neither a completion nor a stream of chunks. */
  read: boolean;
}

const INCIDENTAL = ['id', 'created', 'system_fingerprint', 'object'] as const;

/** The first choice of an answer's text (a JSON body or an SSE stream), with the stream's deltas joined. */
export function answerFacts(answer: string): AnswerFacts {
  const facts: AnswerFacts = { tool_calls: [], incidental: {}, fields: new Set(), read: false };
  const body = jsonOf(answer);
  const chunks = body === undefined ? foldSse(answer).events.flatMap((e) => (e.kind === 'data' ? [jsonOf(e.data)] : [])) : [body];
  for (const chunk of chunks) {
    if (!isRecord(chunk)) continue;
    // A stream's usage may come in a chunk of its own, with no choices.
    if (isRecord(chunk.usage)) facts.usage = Object.fromEntries(Object.entries(chunk.usage).filter((e): e is [string, number] => typeof e[1] === 'number'));
    if (!Array.isArray(chunk.choices)) continue;
    facts.read = true;
    for (const k of Object.keys(chunk)) facts.fields.add(k);
    for (const k of INCIDENTAL) if (chunk[k] !== undefined) facts.incidental[k] ??= chunk[k];
    const choice = chunk.choices.find((c) => isRecord(c) && (c.index === 0 || c.index === undefined));
    if (!isRecord(choice)) continue;
    const part = isRecord(choice.message) ? choice.message : isRecord(choice.delta) ? choice.delta : {};
    for (const k of ['content', 'reasoning_content'] as const) if (typeof part[k] === 'string') facts[k] = (facts[k] ?? '') + (part[k] as string);
    if (Array.isArray(part.tool_calls)) {
      part.tool_calls.forEach((call, i) => {
        if (!isRecord(call)) return;
        const at = typeof call.index === 'number' ? call.index : i;
        const fn = isRecord(call.function) ? call.function : {};
        const into = (facts.tool_calls[at] ??= {});
        if (typeof call.id === 'string') into.id = call.id;
        if (typeof fn.name === 'string') into.name = (into.name ?? '') + fn.name;
        if (typeof fn.arguments === 'string') into.arguments = (into.arguments ?? '') + fn.arguments;
      });
    }
    if (choice.finish_reason !== undefined && choice.finish_reason !== null) facts.finish_reason = choice.finish_reason;
    if (choice.logprobs !== undefined && choice.logprobs !== null) facts.logprobs = mergeLogprobs(facts.logprobs, choice.logprobs);
  }
  return facts;
}

/** A stream's logprobs come a token at a time: joined, they are the body's. */
function mergeLogprobs(sofar: unknown, next: unknown): unknown {
  if (!isRecord(next) || !Array.isArray(next.content)) return next;
  const before = isRecord(sofar) && Array.isArray(sofar.content) ? sofar.content : [];
  return { ...next, content: [...before, ...next.content] };
}

/**
 * What the client was told of the answer against what the upstream sent: content, reasoning, each
 * tool call's id, name and arguments, the finish reason and the logprobs; ids, `created` and fields
 * the gateway added are left out (they carry no meaning: `incidentalChanges` lists them).
 */
export function answerDifferences(clientAnswer: string, upstreamAnswer: string): Difference[] {
  const [c, u] = [answerFacts(clientAnswer), answerFacts(upstreamAnswer)];
  if (!u.read) return [];
  const out: Difference[] = [];
  const compare = (path: string, told: unknown, sent: unknown) => {
    if (sent === undefined) return;
    if (told === undefined) out.push({ kind: 'dropped', path, upstream: sent });
    else if (!deepEqual(told, sent)) out.push({ kind: 'replaced', path, client: told, upstream: sent });
  };
  compare('content', c.content, u.content || undefined);
  compare('reasoning_content', c.reasoning_content, u.reasoning_content || undefined);
  u.tool_calls.forEach((call, i) => {
    compare(`tool_calls.${i}.id`, c.tool_calls[i]?.id, call.id);
    compare(`tool_calls.${i}.function.name`, c.tool_calls[i]?.name, call.name);
    compare(`tool_calls.${i}.function.arguments`, c.tool_calls[i]?.arguments, call.arguments);
  });
  compare('finish_reason', c.finish_reason, u.finish_reason);
  compare('logprobs', c.logprobs, u.logprobs);
  return out;
}

/**
 * What the gateway rewrote or added that carries no meaning, as information, never a failure: ids
 * and `created` rewritten (`name: upstream -> client`), fields of its own beside the answer's, and
 * response headers of its own.
 */
export function incidentalChanges(client: { text: string; headers: Record<string, string> }, upstream: { text: string; headers: Record<string, string> }): string[] {
  const [c, u] = [answerFacts(client.text), answerFacts(upstream.text)];
  const rewritten = INCIDENTAL.filter((k) => u.incidental[k] !== undefined && !deepEqual(c.incidental[k], u.incidental[k])).map((k) => `${k}: ${JSON.stringify(u.incidental[k])} -> ${JSON.stringify(c.incidental[k])}`);
  const fields = [...c.fields].filter((f) => !u.fields.has(f));
  const headers = Object.keys(client.headers).filter((h) => upstream.headers[h] === undefined && !HOP_HEADERS.has(h));
  return [...rewritten, ...(fields.length > 0 ? [`fields added: ${fields.sort().join(', ')}`] : []), ...(headers.length > 0 ? [`headers added: ${headers.sort().join(', ')}`] : [])];
}

/** Headers each hop writes for itself: no gateway "adds" them. */
const HOP_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding', 'server', 'vary']);

/** The error an answer carries (the description's envelope): its type, code and message. */
export function errorOf(answer: string): { type?: unknown; code?: unknown; message?: unknown } | undefined {
  const body = jsonOf(answer);
  if (!isRecord(body) || !isRecord(body.error)) return undefined;
  return { type: body.error.type, code: body.error.code, message: body.error.message };
}
