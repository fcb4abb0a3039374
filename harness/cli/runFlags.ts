import { concurrencyPolicyOf, type ConcurrencyPolicy } from '#harness/transport/index.ts';
import { parseUsd } from '#harness/spec/money.ts';
import { UsageError } from '#harness/core/errors/index.ts';
import { buildRegistry } from '#harness/checks/index.ts';
import { CLIENTS, DEFAULT_CLIENTS } from '#harness/checks/client/index.ts';
import { clientOfCheck, patternsOf, selectionProblems } from '#harness/checks/selection.ts';
import type { Spec } from '#harness/spec/model.ts';

/** The values `run` and `record` take, checked: each bad one is a UsageError naming the flag and an example. */

export function instant(command: string, text: string): Date {
  const d = new Date(text);
  if (Number.isNaN(d.getTime()) || !/^\d{4}-\d{2}-\d{2}T/.test(text)) throw new UsageError(`${command}: --now ${JSON.stringify(text)} is not an ISO 8601 instant (e.g. 2026-07-24T15:58:00Z).`);
  return d;
}

/** The bounds of the numeric flags a config file may set too, so both are checked alike. */
export const RANGES = { concurrency: [1, 256], 'timeout-ms': [100, 3_600_000], 'deadline-ms': [100, 3_600_000] } as const;

export function integer(command: string, name: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || n > max) throw new UsageError(`${command}: --${name} must be ${min === 1 ? 'a positive integer' : 'an integer'} from ${min} to ${max} (got ${JSON.stringify(value)}), e.g. --${name} ${min === 1 ? 4 : 1}.`);
  return n;
}

/**
 * --repeat N: how many times the plan runs (default 1). `record` keeps one answer per request, and a
 * recording (--fixtures) answers each request with the bytes it recorded: neither can ask again, so
 * both refuse N > 1 instead of reporting repetitions that could never disagree.
 */
export function repeatOf(command: string, value: string | undefined, replaying: boolean): number {
  const n = integer(command, 'repeat', value, 1, 1000) ?? 1;
  if (n > 1 && command === 'record') throw new UsageError('record: --repeat applies to `run`; a recording keeps one answer per request. Record once, or run --repeat against the endpoint.');
  if (n > 1 && replaying) throw new UsageError(`${command}: --repeat asks the endpoint again, and a recording (--fixtures) answers with the bytes it recorded; drop --repeat, or point --base-url at the endpoint.`);
  return n;
}

export function parseModelMap(command: string, text: string | undefined): Record<string, string> {
  if (!text) return {};
  const out: Record<string, string> = {};
  for (const pair of text.split(',')) {
    const [a, b] = pair.split('=');
    if (!a || !b) throw new UsageError(`${command}: --model-map takes SPEC_ID=THEIR_ID pairs separated by commas (got ${JSON.stringify(pair)}).`);
    out[a.trim()] = b.trim();
  }
  return out;
}

export function parseShard(command: string, text: string | undefined): { index: number; count: number } | undefined {
  if (text === undefined) return undefined;
  const m = /^(\d+)\/(\d+)$/.exec(text);
  const index = Number(m?.[1]);
  const count = Number(m?.[2]);
  if (!m || count < 1 || index < 1 || index > count) throw new UsageError(`${command}: --shard takes I/N with 1 <= I <= N (got ${JSON.stringify(text)}).`);
  return { index, count };
}

/** --without F,...: features of the spec, each named whole or by a start that fits one only. */
export function parseWithout(command: string, text: string | undefined, features: readonly string[]): string[] {
  if (!text) return [];
  return text.split(',').map((t) => t.trim()).filter((t) => t !== '').map((t) => {
    const fits = features.includes(t) ? [t] : features.filter((f) => f.startsWith(t));
    if (fits.length !== 1) throw new UsageError(`${command}: --without ${JSON.stringify(t)} ${fits.length === 0 ? 'is no feature of the spec' : `fits ${fits.join(' and ')}`}; the features are ${features.join(', ')}.`);
    return fits[0]!;
  });
}

/** --budget-usd: a positive decimal amount of USD, as pico-dollars. */
export function budgetOf(command: string, text: string): bigint {
  let v: bigint | undefined;
  try {
    v = /^\d+(\.\d+)?$/.test(text) ? parseUsd(text) : undefined;
  } catch {
    v = undefined;
  }
  if (v === undefined || v <= 0n) throw new UsageError(`${command}: --budget-usd must be a positive amount of USD such as 0.05 (got ${JSON.stringify(text)}).`);
  return v;
}

/**
 * --only and --skip (each repeatable, each value a comma-separated list), checked against the
 * checks the models would run: a selection that selects nothing would judge nothing, so it is a
 * usage error now, never a green "0 checks" later.
 */
export function selectionOf(command: string, spec: Spec, models: readonly string[], only: readonly string[] | undefined, skip: readonly string[] | undefined, clients: readonly string[]): { only: string[]; skip: string[]; clients: string[] } {
  const selection = { only: patternsOf(only), skip: patternsOf(skip), clients: [...clients] };
  const selectable = buildRegistry(spec).plan(spec, models).map((p) => p.check.id);
  const wrong = selectionProblems(selection, selectable);
  if (wrong.length > 0) {
    const areas = [...new Set(selectable.map((id) => id.split('.')[0]))].join(', ');
    throw new UsageError(`${command}: ${wrong.join('; ')} (of ${selectable.length} checks on ${models.join(', ')}). A pattern is part of a check id, or a glob with *; areas: ${areas}.`);
  }
  return selection;
}

/** --concurrency N fixes the requests in flight at N; without it the limit adapts to the endpoint (transport/adaptiveLimit.ts). */
export function concurrencyOf(command: string, value: string | undefined): ConcurrencyPolicy {
  return concurrencyPolicyOf(integer(command, 'concurrency', value, ...RANGES.concurrency));
}

/**
 * --clients a,b: the pinned clients whose checks run (checks/client/index.ts), each named as
 * `list --clients` names it. Without the flag: for `record` every client (a client check sends
 * nothing of its own, so a recording holding every client's verdicts costs no request, and its
 * replay can choose any of them); for a replay, the clients whose checks its recording holds
 * (`recorded`: their ids), so it judges what the recording judged; else DEFAULT_CLIENTS.
 * `--clients none` runs no client check.
 */
export function clientsOf(command: string, value: string | undefined, recorded: readonly string[] = []): string[] {
  const held = [...new Set(recorded.map(clientOfCheck).filter((c) => c !== undefined))];
  if (value === undefined) return command === 'record' ? CLIENTS.map((c) => c.name) : held.length > 0 ? held : [...DEFAULT_CLIENTS];
  const names = patternsOf([value]);
  if (names.length === 1 && names[0] === 'none') return [];
  const known = CLIENTS.map((c) => c.name);
  const wrong = names.filter((n) => !known.includes(n));
  if (names.length === 0 || wrong.length > 0) throw new UsageError(`${command}: --clients ${wrong.length > 0 ? `${wrong.map((w) => JSON.stringify(w)).join(', ')} ${wrong.length === 1 ? 'is no pinned client' : 'are no pinned clients'}` : 'names no client'}; the clients are ${known.join(', ')} (or none), e.g. --clients ${DEFAULT_CLIENTS.join(',')}. \`svc-conformance list --clients\` shows their versions.`);
  return [...new Set(names)];
}
