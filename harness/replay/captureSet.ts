import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse as parseYaml } from 'yaml';
import type { RecordedEvent } from '#harness/core/exchange.ts';
import { foldSse } from '#harness/core/sseFold.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { bodyHash, canonicalBody, canonicalJson, exchangeFileName, modelOf, SCHEMA_VERSION, type FixtureExchange, type FixtureManifest } from './fixtureFormat.ts';
import { MESSAGES_BASE_PATH } from '#harness/core/messagesPaths.ts';

/**
 * Builds a fixture set from real captures (DIR/captures.yaml says which request each answers):
 * DIR/manifest.json marked `coverage: partial` and one exchange file per entry, in the recording
 * format, so `run --fixtures DIR` replays real traffic through the same path as any recording.
 * Responses keep the capture's bytes, with production model ids mapped to the description's.
 */

interface CaptureEntry {
  capture: string;
  request: { method: string; path: string; auth?: 'key' | 'wrong'; body?: unknown };
  assumed_headers?: Record<string, string>;
  note?: string;
}

interface CaptureMap {
  source: string;
  clock: string;
  recorded_at: string;
  model_ids: Record<string, string>;
  entries: CaptureEntry[];
}

/** The address replayed paths are relative to: nothing is ever sent there. */
const CAPTURE_BASE_URL = 'https://production.invalid';

const DROPPED_HEADERS = new Set(['content-length', 'connection', 'keep-alive', 'transfer-encoding', 'content-encoding', 'set-cookie']);

function readMap(file: string): CaptureMap {
  const map = parseYaml(readFileSync(file, 'utf8')) as CaptureMap;
  for (const [i, e] of map.entries.entries()) {
    if (typeof e.capture !== 'string' || typeof e.request?.method !== 'string' || typeof e.request.path !== 'string') {
      throw new Error(`${file}: entries[${i}] needs capture, request.method and request.path`);
    }
  }
  return map;
}

/** Every JSON string equal to a production id, mapped (in text: the bytes around it stay as captured). */
function mapIds(text: string, ids: Record<string, string>): string {
  return Object.entries(ids).reduce((out, [from, to]) => out.replaceAll(JSON.stringify(from), JSON.stringify(to)), text);
}

/** The capture's row in PROVENANCE.md, as one line: class, project, path, commit, interaction, date. */
function provenanceOf(realWorldDir: string, capture: string): string {
  const row = readFileSync(join(realWorldDir, 'PROVENANCE.md'), 'utf8')
    .split('\n')
    .find((line) => line.startsWith(`| ${capture} |`));
  if (!row) throw new Error(`${capture}: no row in ${join(realWorldDir, 'PROVENANCE.md')}`);
  const [, cls, repo, path, commit, interaction, , , recorded] = row.split('|').map((c) => c.trim()).slice(1);
  return `${cls}: ${repo} ${path} @ ${commit!.slice(0, 12)}${interaction ? `, interaction ${interaction}` : ''}, recorded ${recorded} (fixtures/real-world/PROVENANCE.md)`;
}

/** A captured stream's events in recorded form; a last event the capture never closed is kept (pasted captures lose the final blank line). */
function sseEvents(text: string): RecordedEvent[] {
  const { events, facts } = foldSse(text);
  const recorded = events.map(({ data, event }): RecordedEvent => (event === undefined ? { at: 0, data } : { at: 0, data, event }));
  if (facts.unfinished !== undefined) recorded.push({ at: 0, ...facts.unfinished });
  return recorded;
}

function capturedHeaders(realWorldDir: string, capture: string): { status: number; headers: Record<string, string> } | undefined {
  const name = capture.replace(/\.(json|sse|txt)$/, '.headers.json');
  if (!readdirSync(realWorldDir).includes(name)) return undefined;
  const raw = JSON.parse(readFileSync(join(realWorldDir, name), 'utf8')) as { status: number; headers: Record<string, string[]> };
  const headers = Object.fromEntries(
    Object.entries(raw.headers)
      .filter(([k]) => !DROPPED_HEADERS.has(k.toLowerCase()))
      .map(([k, v]) => [k.toLowerCase(), v.join(', ')]),
  );
  return { status: raw.status, headers };
}

export function buildCaptureExchange(entry: CaptureEntry, map: CaptureMap, realWorldDir: string): FixtureExchange {
  const { request } = entry;
  const secret = request.auth === 'wrong' ? null : 0;
  const captured = capturedHeaders(realWorldDir, entry.capture);
  if (!captured && !entry.assumed_headers) throw new Error(`${entry.capture}: no .headers.json was recorded; give assumed_headers`);
  const text = mapIds(readFileSync(join(realWorldDir, entry.capture), 'utf8'), map.model_ids);
  const response: NonNullable<FixtureExchange['response']> = {
    status: captured?.status ?? 200,
    headers: captured?.headers ?? entry.assumed_headers!,
    ...(entry.capture.endsWith('.sse') ? { events: sseEvents(text) } : { text }),
  };
  const note = [entry.note?.trim(), captured ? undefined : `Status and headers were not recorded: status 200 and ${Object.keys(entry.assumed_headers!).join(', ')} are assumed.`].filter(Boolean).join(' ');
  return {
    key: {
      method: request.method,
      path: request.path,
      secret,
      bodyHash: bodyHash(canonicalBody(request.body !== undefined ? { body: request.body } : {})),
      ...(request.auth === 'wrong' ? { auth: 'bearer' as const } : {}),
    },
    request: {
      method: request.method,
      path: request.path,
      headers: { ...(secret === 0 ? { authorization: 'Bearer [REDACTED]' } : {}), ...(request.body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(request.body !== undefined ? { body: request.body } : {}),
    },
    response,
    provenance: { capture: entry.capture, source: provenanceOf(realWorldDir, entry.capture), ...(note ? { note } : {}) },
  };
}

/** The spec models the entries' requests name, in the spec's order: a replay of any other is refused. */
function capturedModels(map: CaptureMap, specModels: readonly string[]): string[] {
  const named = new Set(map.entries.map((e) => modelOf(e.request.body)));
  return specModels.filter((m) => named.has(m));
}

/** Writes DIR/manifest.json and DIR/exchanges/ (replaced whole) from DIR/captures.yaml and the captures in `realWorldDir`. */
export function buildCaptureSet(dir: string, realWorldDir: string, specDir?: string): { exchanges: number } {
  const map = readMap(join(dir, 'captures.yaml'));
  const spec = loadSpec(specDir).spec;
  const manifest: FixtureManifest = {
    schemaVersion: SCHEMA_VERSION,
    recordedAt: new Date(map.recorded_at).toISOString(),
    clock: new Date(map.clock).toISOString(),
    spec: { revision: spec.revision },
    harness: { version: 'capture-set' },
    baseUrl: CAPTURE_BASE_URL,
    messagesBasePath: MESSAGES_BASE_PATH,
    emptyBalanceKey: false,
    coverage: 'partial',
    source: map.source.trim(),
    // The models the captures answer for; no check list: a capture answers a request, whichever check sends it.
    models: capturedModels(map, Object.keys(spec.models)),
  };
  rmSync(join(dir, 'exchanges'), { recursive: true, force: true });
  mkdirSync(join(dir, 'exchanges'), { recursive: true });
  writeFileSync(join(dir, 'manifest.json'), `${canonicalJson(manifest)}\n`);
  map.entries.forEach((entry, i) => {
    const fx = buildCaptureExchange(entry, map, realWorldDir);
    writeFileSync(join(dir, 'exchanges', exchangeFileName(i + 1, fx)), `${canonicalJson(fx)}\n`);
  });
  return { exchanges: map.entries.length };
}

// `npx tsx harness/replay/captureSet.ts [DIR]`: rebuild a committed set after editing its captures.yaml.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const root = new URL('../../', import.meta.url).pathname;
  const dir = resolve(process.argv[2] ?? join(root, 'fixtures/production-captures'));
  const { exchanges } = buildCaptureSet(dir, join(root, 'fixtures/real-world'));
  process.stdout.write(`${dir}: ${exchanges} exchanges built from real captures\n`);
}
