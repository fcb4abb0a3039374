import { jsonOf } from '#harness/core/parsesAsJson.ts';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ValidateFunction } from 'ajv';
import { createAjv } from '#harness/core/createAjv.ts';
import type { Exchange, RecordedEvent } from '#harness/core/exchange.ts';
import type { UpstreamExchange } from '#harness/core/upstream.ts';

/**
 * A recording on disk (schema: fixtures/fixture.schema.json):
 *
 *   DIR/manifest.json                                  what the run ran under
 *   DIR/exchanges/NNNN-<method>-<path-slug>-<hash8>.json  one exchange per file, in recording order
 *
 * Every file is written with sorted keys and two-space indentation, so a re-recording diffs
 * line by line. Credentials never reach these files: the transport redacts every exchange before
 * the recorder sees it, and the recorder keeps only the index of the key a request carried.
 */
export const SCHEMA_VERSION = 1;

export interface FixtureManifest {
  schemaVersion: 1;
  recordedAt: string;
  /** The run's reference time (ISO): replayed lifecycle checks judge against it. */
  clock: string;
  spec: { revision: string };
  harness: { version: string };
  /** The recorded base URL; every exchange path is relative to it. */
  baseUrl: string;
  /** The messages base, relative to baseUrl (e.g. `/anthropic`). */
  messagesBasePath: string;
  /** True when the run had a second, empty-balance key (secret index 1). */
  emptyBalanceKey: boolean;
  /**
   * `partial` for a set built from captures rather than recorded from a run: a request it holds no
   * capture for is skipped (the endpoint was never asked), and only exact matches answer.
   */
  coverage?: 'partial';
  /** Where a set built from captures came from, in a sentence. */
  source?: string;
  /** The load phase's N this process drove (`run --load`, its share under --shard); absent: no load phase was recorded. */
  load?: number;
  /**
   * The spec models the run recorded, in its order: a replay runs these, and refuses any other
   * (another model's requests would be answered with these models' bytes). Older recordings lack it.
   */
  models?: string[];
  /**
   * Per recorded model, the ids of the checks whose exchanges the recording holds (sorted). A replay
   * skips any other check as not recorded instead of answering it with another check's bytes.
   * Absent when it cannot be told: an older recording, one that stopped before its end, a set
   * built from captures (which answers by request, not by check).
   */
  checks?: Record<string, string[]>;
  /** A gateway run: how its upstream was served; DIR/upstream.json holds what the upstream saw. */
  upstream?: { kind: 'emulator' | 'tap'; anyKey: boolean };
}

/** How a request carried its credential: a bearer token, none, or a malformed Authorization. */
export type AuthForm = 'bearer' | 'none' | 'malformed';

/** Where a capture-built exchange's response came from (its file and SOURCES.md line). */
export interface FixtureProvenance {
  capture: string;
  source: string;
  note?: string;
}

export interface FixtureKey {
  method: string;
  /** Relative to the manifest's baseUrl, query included. */
  path: string;
  /** Index of the run's key the request carried (0 the key, 1 the empty-balance key), null for none. */
  secret: number | null;
  /** First 16 hex digits of the SHA-256 of the canonical request body (`canonicalBody`). */
  bodyHash: string;
  /** When set, only a request carrying its credential this way matches. */
  auth?: AuthForm;
}

export interface FixtureExchange {
  key: FixtureKey;
  request: { method: string; path: string; headers: Record<string, string>; body?: unknown; rawBody?: string };
  response?: { status: number; headers: Record<string, string>; body?: unknown; text?: string; events?: RecordedEvent[]; truncated?: boolean };
  error?: { code: string; message: string };
  provenance?: FixtureProvenance;
}

/** JSON with object keys sorted at every depth; `indent` 0 for the compact form. */
export function canonicalJson(value: unknown, indent = 2): string {
  return JSON.stringify(sortKeys(value), null, indent || undefined);
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    return Object.fromEntries(Object.keys(obj).sort().map((k) => [k, sortKeys(obj[k])]));
  }
  return value;
}

/**
 * The form a request body is matched by: the JSON re-serialized with sorted keys (so key order
 * and whitespace do not matter), `raw:` + the bytes for a body that is deliberately not JSON, ''
 * for none.
 */
export function canonicalBody(req: { body?: unknown; rawBody?: string }): string {
  // Bytes that parse as JSON are matched as JSON: a replayed request's bytes are read that way (requestKey.ts).
  if (req.rawBody !== undefined) {
    const json = jsonOf(req.rawBody);
    return json === undefined ? `raw:${req.rawBody}` : canonicalJson(json, 0);
  }
  if (req.body !== undefined) return canonicalJson(req.body, 0);
  return '';
}

/** The model a request body names (`model` at its top), if any: chat, FIM and messages bodies all carry it there. */
export function modelOf(body: unknown): string | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const { model } = body as { model?: unknown };
  return typeof model === 'string' ? model : undefined;
}

export function bodyHash(canonical: string): string {
  return createHash('sha256').update(canonical).digest('hex').slice(0, 16);
}

/** A URL as a path relative to `baseUrl` (query included); undefined when it is not under it. */
export function relativePath(url: string, baseUrl: string): string | undefined {
  const base = baseUrl.replace(/\/+$/, '');
  if (url !== base && !url.startsWith(`${base}/`) && !url.startsWith(`${base}?`)) return undefined;
  return url.slice(base.length) || '/';
}

const HOP_HEADERS = new Set(['host', 'content-length', 'connection', 'keep-alive', 'transfer-encoding']);

function keptHeaders(headers: Record<string, string>, drop: ReadonlySet<string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !drop.has(name.toLowerCase())));
}

/** An exchange as stored: paths relative to the base, no timings but SSE offsets (whole ms). */
export function toFixtureExchange(exchange: Exchange, baseUrl: string, secret: number | undefined): FixtureExchange {
  const { request, response } = exchange;
  const path = relativePath(request.url, baseUrl);
  if (path === undefined) throw new Error(`record: ${request.method} ${request.url} is not under the recorded base URL ${baseUrl}`);
  const out: FixtureExchange = {
    // A request carrying none of the run's keys is told apart by how it carries a credential: the
    // missing, malformed and wrong-key checks send the same body, and run in any order.
    key: { method: request.method, path, secret: secret ?? null, bodyHash: bodyHash(canonicalBody(request)), ...(secret === undefined ? { auth: authFormOf((name) => headerOf(request.headers, name)) } : {}) },
    request: {
      method: request.method,
      path,
      headers: keptHeaders(request.headers, HOP_HEADERS),
      ...(request.rawBody !== undefined ? { rawBody: request.rawBody } : request.body !== undefined ? { body: request.body } : {}),
    },
  };
  if (response) {
    out.response = { status: response.status, headers: keptHeaders(response.headers, HOP_HEADERS) };
    if (response.events) {
      out.response.events = response.events.map((e) => ({ ...e, at: Math.round(e.at) }));
      // The stream as it arrived, framing and all: a client fed the replay reads the same bytes (recordedResponse.ts).
      if (response.text !== undefined) out.response.text = response.text;
    } else if (response.body !== undefined) out.response.body = response.body;
    else if (response.text !== undefined) out.response.text = response.text;
    if (response.truncated) out.response.truncated = true;
  }
  if (exchange.error) out.error = { ...exchange.error };
  return out;
}

/** How a request carries its credential: none, as a bearer token (or an x-api-key), or malformed. */
export function authFormOf(header: (name: string) => string | null | undefined): AuthForm {
  const auth = header('authorization');
  if (auth === null || auth === undefined) return header('x-api-key') === null || header('x-api-key') === undefined ? 'none' : 'bearer';
  return /^Bearer\s+\S+$/i.test(auth) ? 'bearer' : 'malformed';
}

/** A header of a recorded request, whatever the case of its name. */
const headerOf = (headers: Record<string, string>, name: string): string | undefined => Object.entries(headers).find(([n]) => n.toLowerCase() === name)?.[1];

export function exchangeFileName(seq: number, fx: FixtureExchange): string {
  const slug = fx.key.path.split('?')[0]!.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60) || 'root';
  const hash = bodyHash(`${fx.key.method} ${fx.key.path} ${fx.key.secret} ${fx.key.bodyHash}`).slice(0, 8);
  return `${String(seq).padStart(4, '0')}-${fx.key.method.toLowerCase()}-${slug}-${hash}.json`;
}

export function writeManifest(dir: string, manifest: FixtureManifest): void {
  mkdirSync(join(dir, 'exchanges'), { recursive: true });
  writeFileSync(join(dir, 'manifest.json'), `${canonicalJson(manifest)}\n`);
}

/**
 * A recorder for the transport's `record` option: writes each exchange to its own file, named
 * when first seen (headers arrived) and rewritten when the exchange completes.
 */
export function fixtureRecorder(dir: string, baseUrl: string): (exchange: Exchange, info: { secret?: number }) => void {
  const names = new WeakMap<Exchange, string>();
  let seq = 0;
  mkdirSync(join(dir, 'exchanges'), { recursive: true });
  return (exchange, info) => {
    // Secrets past the two keys are header values (--header-env), not which key a request carried.
    const fx = toFixtureExchange(exchange, baseUrl, info.secret !== undefined && info.secret < 2 ? info.secret : undefined);
    let name = names.get(exchange);
    if (name === undefined) {
      seq += 1;
      name = exchangeFileName(seq, fx);
      names.set(exchange, name);
    }
    writeFileSync(join(dir, 'exchanges', name), `${canonicalJson(fx)}\n`);
  };
}

export interface Fixture {
  manifest: FixtureManifest;
  /** In recording order (file name order). */
  exchanges: FixtureExchange[];
}

let fixtureValidators: { manifest: ValidateFunction; exchange: ValidateFunction } | undefined;

/** fixtures/fixture.schema.json's two file shapes, compiled once (a run loads one recording). */
function validators(): { manifest: ValidateFunction; exchange: ValidateFunction } {
  if (!fixtureValidators) {
    // Only the first error is shown, and stopping there keeps loading a recording quick.
    const ajv = createAjv({ firstErrorOnly: true });
    const schema = JSON.parse(readFileSync(new URL('../../fixtures/fixture.schema.json', import.meta.url), 'utf8')) as { $id: string };
    ajv.addSchema(schema);
    const part = (name: string) => ajv.getSchema(`${schema.$id}#/$defs/${name}`)!;
    fixtureValidators = { manifest: part('manifest'), exchange: part('exchange') };
  }
  return fixtureValidators;
}

function parseFile(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as unknown;
  } catch (err) {
    throw new Error(`${file}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** A fixture file checked against the schema: a hand-edited file that breaks it is named with what is wrong. */
function checked<T>(file: string, value: unknown, shape: 'manifest' | 'exchange'): T {
  const validate = validators()[shape];
  if (!validate(value)) {
    const err = validate.errors?.[0];
    throw new Error(`${file}: does not match fixtures/fixture.schema.json: ${err ? `${err.instancePath || '/'} ${err.message ?? ''}` : 'invalid'}`);
  }
  return value as T;
}

/** DIR/manifest.json alone, checked against the schema (what a replay decides its models by). */
export function readManifest(dir: string): FixtureManifest {
  const manifestFile = join(dir, 'manifest.json');
  const raw = parseFile(manifestFile) as { schemaVersion?: unknown } | null;
  // The version first: a recording from another harness version differs in more than one field.
  if (raw?.schemaVersion !== SCHEMA_VERSION) throw new Error(`${manifestFile}: schemaVersion ${String(raw?.schemaVersion)} is not ${SCHEMA_VERSION}`);
  return checked<FixtureManifest>(manifestFile, raw, 'manifest');
}

export function readFixture(dir: string): Fixture {
  const manifest = readManifest(dir);
  const files = readdirSync(join(dir, 'exchanges')).filter((f) => f.endsWith('.json')).sort();
  const exchanges = files.map((f) => checked<FixtureExchange>(join(dir, 'exchanges', f), parseFile(join(dir, 'exchanges', f)), 'exchange'));
  return { manifest, exchanges };
}

/** DIR/upstream.json: every exchange a gateway had with the harness as its upstream, in arrival order. */
export function writeUpstreamLog(dir: string, exchanges: readonly UpstreamExchange[]): void {
  writeFileSync(join(dir, UPSTREAM_LOG), `${canonicalJson(exchanges)}\n`);
}

/** The upstream side of a recorded gateway run, or undefined when it has none. */
export function readUpstreamLog(dir: string): UpstreamExchange[] | undefined {
  const file = join(dir, UPSTREAM_LOG);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as UpstreamExchange[]) : undefined;
}

const UPSTREAM_LOG = 'upstream.json';
