import { existsSync, readFileSync } from 'node:fs';
import { UsageError } from '#harness/core/errors/index.ts';
import { locate } from '#harness/spec/locate.ts';
import { yaml } from '#harness/spec/yaml.ts';
import { parseHeader, parseHeaderEnv, type ExtraHeader } from '#harness/core/extraHeaders.ts';

/** One target of svc-conformance.yaml. */
export interface TargetEntry {
  baseUrl: string;
  apiKeyEnv: string;
  messagesBaseUrl?: string;
  emptyBalanceKeyEnv?: string;
  modelMap: Record<string, string>;
  /** headers (NAME: value) and header_env (NAME: VAR): sent with every request to this target. */
  headers: ExtraHeader[];
  /** Features this target does not offer (checked against the spec by the run). */
  without: string[];
}

export const CONFIG_FILE = 'svc-conformance.yaml';
const KEYS = new Set(['base_url', 'api_key_env', 'messages_base_url', 'empty_balance_key_env', 'model_map', 'headers', 'header_env', 'without']);

/**
 * Reads the targets of a config file:
 *
 *   targets:
 *     - base_url: https://api.example.com
 *       api_key_env: EXAMPLE_API_KEY        # default SVC_API_KEY
 *       messages_base_url: https://...      # default {base_url}/anthropic
 *       empty_balance_key_env: EMPTY_KEY    # optional: checks the 402 rule
 *       model_map: { svc-v4-flash: their-fast-model }
 *       headers: { x-portkey-provider: openai }           # sent with every request
 *       header_env: { x-portkey-api-key: PORTKEY_API_KEY } # value from the environment, kept secret
 *       without: [fim, balance]                            # features it does not offer
 *
 * A problem names the file, the line and the field, and exits 2.
 */
export function readTargetsConfig(file: string): TargetEntry[] {
  if (!existsSync(file)) throw new UsageError(`run: --config ${file}: no such file.`);
  const { LineCounter, parseDocument } = yaml();
  const lineCounter = new LineCounter();
  const doc = parseDocument(readFileSync(file, 'utf8'), { lineCounter, prettyErrors: false });
  const problem = (path: (string | number)[], message: string, atKey = false): never => {
    // An unknown key is pointed at itself, not at its value.
    const { line, column } = atKey ? locate(doc, lineCounter, path.slice(0, -1), String(path.at(-1))) : locate(doc, lineCounter, path);
    throw new UsageError(`run: ${file}:${line}:${column} ${path.join('.') || '/'}: ${message}`);
  };
  if (doc.errors.length > 0) {
    const pos = lineCounter.linePos(doc.errors[0]!.pos[0]);
    throw new UsageError(`run: ${file}:${pos.line}:${pos.col}: YAML syntax: ${doc.errors[0]!.message.split('\n')[0]}`);
  }
  const data = doc.toJS() as unknown;
  const targets = (data as { targets?: unknown } | null)?.targets;
  if (!Array.isArray(targets) || targets.length === 0) return problem(['targets'], 'a non-empty list of targets is required');
  return targets.map((t, i): TargetEntry => {
    if (typeof t !== 'object' || t === null || Array.isArray(t)) return problem(['targets', i], 'each target is a mapping with base_url');
    const entry = t as Record<string, unknown>;
    for (const k of Object.keys(entry)) if (!KEYS.has(k)) problem(['targets', i, k], `unknown key \`${k}\` (known: ${[...KEYS].join(', ')})`, true);
    const text = (k: string, required: boolean): string | undefined => {
      const v = entry[k];
      if (v === undefined && !required) return undefined;
      if (typeof v !== 'string' || v === '') return problem(['targets', i, k], required ? 'required, a string' : 'must be a string');
      return v;
    };
    const map = entry.model_map;
    if (map !== undefined && (typeof map !== 'object' || map === null || Object.values(map).some((v) => typeof v !== 'string'))) {
      problem(['targets', i, 'model_map'], 'a mapping from spec model ids to the target\'s own ids');
    }
    const pairs = (k: string): [string, string][] => {
      const v = entry[k];
      if (v === undefined) return [];
      if (typeof v !== 'object' || v === null || Array.isArray(v) || Object.values(v).some((x) => typeof x !== 'string')) return problem(['targets', i, k], 'a mapping from header names to strings');
      return Object.entries(v as Record<string, string>);
    };
    const where = (k: string, header: string) => {
      const { line, column } = locate(doc, lineCounter, ['targets', i, k], header);
      return `run: ${file}:${line}:${column} targets.${i}.${k}.${header}`;
    };
    const headers = [
      ...pairs('headers').map(([n, v]) => parseHeader(where('headers', n), `${n}: ${v}`)),
      ...pairs('header_env').map(([n, v]) => parseHeaderEnv(where('header_env', n), `${n}=${v}`)),
    ];
    const without = entry.without;
    if (without !== undefined && (!Array.isArray(without) || without.some((w) => typeof w !== 'string'))) problem(['targets', i, 'without'], 'a list of feature names, e.g. [fim, balance]');
    const messagesBaseUrl = text('messages_base_url', false);
    const emptyBalanceKeyEnv = text('empty_balance_key_env', false);
    return {
      baseUrl: text('base_url', true)!,
      apiKeyEnv: text('api_key_env', false) ?? 'SVC_API_KEY',
      ...(messagesBaseUrl ? { messagesBaseUrl } : {}),
      ...(emptyBalanceKeyEnv ? { emptyBalanceKeyEnv } : {}),
      modelMap: (map as Record<string, string> | undefined) ?? {},
      headers,
      without: (without as string[] | undefined) ?? [],
    };
  });
}
