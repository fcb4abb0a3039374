/**
 * Shared test helpers for the real-world captures in fixtures/real-world/ (byte-identical copies of
 * ../shared/real-world/captures (beside the checkout); see fixtures/real-world/PROVENANCE.md).
 *
 * The fixtures keep the production model ids as captured; `mapModelIds` turns them into the
 * description's ids at test time, so the files stay byte-faithful. Test code only.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { splitLines, splitSse, type SplitStream } from '#harness/capture/stream.ts';

/** <repo>/fixtures/real-world */
export const REAL_WORLD_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../fixtures/real-world');

/** Production model id -> the description's neutral id (captures/README.md). */
export const PRODUCTION_MODEL_IDS: Readonly<Record<string, string>> = Object.freeze({
  'deepseek-chat': 'svc-chat',
  'deepseek-reasoner': 'svc-reasoner',
  'deepseek-v4-flash': 'svc-v4-flash',
  'deepseek-v4-pro': 'svc-v4-pro',
});

/** The description's id for a production model id; other strings come back unchanged. */
export function mapModelId(id: string): string {
  return Object.hasOwn(PRODUCTION_MODEL_IDS, id) ? PRODUCTION_MODEL_IDS[id]! : id;
}

/** Keys whose string values name a model: `model` in completions and chunks, `id` in model-list entries. */
const MODEL_ID_KEYS = new Set(['model', 'id']);

/**
 * A deep copy of a parsed body with every production model id (a `model` value, or an `id` value that
 * is exactly a production id, as in `/models` entries) replaced by the description's id. Only exact
 * matches change, so completion ids and message text are left alone. The input is not modified.
 */
export function mapModelIds<T>(body: T): T {
  const walk = (value: unknown, key: string | undefined): unknown => {
    if (typeof value === 'string') return key !== undefined && MODEL_ID_KEYS.has(key) ? mapModelId(value) : value;
    if (Array.isArray(value)) return value.map((v) => walk(v, undefined));
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, k)]));
    }
    return value;
  };
  return walk(body, undefined) as T;
}

/** Kinds of fixture, by file name. `*.headers.json` hold status + headers, not a body. */
export type FixtureKind = 'headers' | 'sse' | 'chunks' | 'json' | 'text';

export function fixtureKind(name: string): FixtureKind {
  if (name.endsWith('.headers.json')) return 'headers';
  if (name.endsWith('.chunks.txt')) return 'chunks';
  if (name.endsWith('.sse')) return 'sse';
  if (name.endsWith('.json')) return 'json';
  return 'text';
}

/**
 * Fixture file names (sorted), optionally those starting with a prefix or matching a pattern.
 * PROVENANCE.md and other non-capture files are never listed.
 */
export function listFixtures(filter?: string | RegExp): string[] {
  return readdirSync(REAL_WORLD_DIR)
    .filter((name) => name !== 'PROVENANCE.md' && !name.endsWith('.md'))
    .filter((name) => (filter === undefined ? true : typeof filter === 'string' ? name.startsWith(filter) : filter.test(name)))
    .sort();
}

/** Body files only (no `*.headers.json`), optionally filtered like listFixtures. */
export function listBodies(filter?: string | RegExp): string[] {
  return listFixtures(filter).filter((name) => fixtureKind(name) !== 'headers');
}

export function fixturePath(name: string): string {
  return join(REAL_WORLD_DIR, name);
}

export function readFixtureBytes(name: string): Buffer {
  return readFileSync(fixturePath(name));
}

export function readFixture(name: string): string {
  return readFileSync(fixturePath(name), 'utf8');
}

/** `name.json` -> `name.headers.json` when that file was copied, else undefined. */
export function headersFileFor(name: string): string | undefined {
  const base = name.replace(/\.(json|sse|txt|chunks\.txt)$/, '').replace(/\.chunks$/, '');
  const candidate = `${base}.headers.json`;
  return listFixtures().includes(candidate) ? candidate : undefined;
}

/** The recorded status and Content-Type of an interaction (both cassette header layouts are read). */
export interface RecordedHeaders {
  status: number;
  contentType: string | undefined;
}

export function readHeaders(name: string): RecordedHeaders {
  const raw = JSON.parse(readFixture(name)) as { status: number; headers: unknown };
  let contentType: string | undefined;
  if (Array.isArray(raw.headers)) {
    // HAR layout: [{ name, value }]
    const hit = (raw.headers as { name: string; value: string }[]).find((h) => h.name.toLowerCase() === 'content-type');
    contentType = hit?.value;
  } else if (raw.headers && typeof raw.headers === 'object') {
    // VCR layout: { Name: [values] }
    for (const [k, v] of Object.entries(raw.headers as Record<string, unknown>)) {
      if (k.toLowerCase() === 'content-type') contentType = Array.isArray(v) ? String(v[0]) : String(v);
    }
  }
  return { status: raw.status, contentType };
}

/** The outcome of reading a body as JSON: real bodies may start with blank lines (keep-alive). */
export type ParsedBody =
  | { ok: true; value: unknown; leadingBlankLines: number }
  | { ok: false; error: string; leadingBlankLines: number };

/**
 * Parses a body that may begin with blank lines (the production service writes "\n" keep-alives
 * before a slow non-streamed body). Only leading line breaks and whitespace are skipped; anything
 * else that is not JSON is reported, never guessed at.
 */
export function parseBody(text: string): ParsedBody {
  const leading = /^[\s]*/.exec(text)?.[0] ?? '';
  const leadingBlankLines = (leading.match(/\n/g) ?? []).length;
  const rest = text.slice(leading.length);
  try {
    return { ok: true, value: JSON.parse(rest) as unknown, leadingBlankLines };
  } catch (err) {
    return { ok: false, error: (err as Error).message, leadingBlankLines };
  }
}

/** Like parseBody, but throws when the body is not JSON. */
export function parseJsonBody(text: string): unknown {
  const parsed = parseBody(text);
  if (!parsed.ok) throw new Error(`body is not JSON: ${parsed.error}`);
  return parsed.value;
}

/** A stream, read back into its chunk objects and framing facts. */
export interface ParsedStream {
  /** Each `data:` payload parsed as JSON, in order, `[DONE]` excluded. */
  chunks: unknown[];
  /** Comment lines (`: keep-alive`), with the parser's leading space trimmed. */
  comments: string[];
  /** true when a `data: [DONE]` event was seen; 'stripped' for `.chunks.txt` files whose storing project removed it. */
  done: boolean | 'stripped';
  /** Events after `[DONE]` (should be none). */
  eventsAfterDone: number;
  /** `data:` payloads that were neither JSON nor `[DONE]`. */
  unparsed: string[];
  /** Events with an `event:` name (the description shows none). */
  namedEvents: string[];
  /**
   * Text after the last blank line that did not end with one: an event the body never closed. An SSE
   * parser discards it at end of input (WHATWG HTML, "event stream interpretation"), so a `data:
   * [DONE]` written there is not seen. Undefined when the body ends on an event boundary.
   */
  unterminatedTail?: string;
}

/** The splitter the `validate` command uses, read into this helper's shape (one parser for both). */
function fromSplit(s: SplitStream, doneStripped: boolean): ParsedStream {
  const out: ParsedStream = {
    chunks: s.payloads.flatMap((p) => (p.ok ? [p.value] : [])),
    comments: s.comments,
    done: doneStripped ? 'stripped' : s.done === true,
    eventsAfterDone: s.eventsAfterDone,
    unparsed: s.payloads.flatMap((p) => (p.ok ? [] : [p.text])),
    namedEvents: s.namedEvents,
  };
  if (s.unterminatedTail !== undefined) out.unterminatedTail = s.unterminatedTail;
  return out;
}

/** An SSE body split by the one SSE reader: chunks, comments, whether `[DONE]` came, what followed. */
export function parseSse(text: string): ParsedStream {
  return fromSplit(splitSse(text), false);
}

/** A `.chunks.txt` body: one chunk JSON per non-empty line (`data: ` and `[DONE]` were stripped upstream). */
export function parseChunksTxt(text: string): ParsedStream {
  return fromSplit(splitLines(text), true);
}

/** Reads a stream fixture (`.sse` or `.chunks.txt`) by name. */
export function readStream(name: string): ParsedStream {
  const kind = fixtureKind(name);
  if (kind === 'sse') return parseSse(readFixture(name));
  if (kind === 'chunks') return parseChunksTxt(readFixture(name));
  throw new Error(`${name} is not a stream fixture (.sse or .chunks.txt)`);
}
