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
export function usageOf(answer: string): Record<string, number> | undefined {
  const body = jsonOf(answer);
  let usage: unknown = isRecord(body) ? body.usage : undefined;
  if (body === undefined) {
    for (const e of foldSse(answer).events) {
      const chunk = e.kind === 'data' ? jsonOf(e.data) : undefined;
      if (isRecord(chunk) && isRecord(chunk.usage)) usage = chunk.usage;
    }
  }
  if (!isRecord(usage)) return undefined;
  return Object.fromEntries(Object.entries(usage).filter((e): e is [string, number] => typeof e[1] === 'number'));
}

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

