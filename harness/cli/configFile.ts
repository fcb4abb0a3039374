import { readFileSync, statSync } from 'node:fs';
import type { Document, LineCounter } from 'yaml';
import { UsageError } from '#harness/core/errors/index.ts';
import { locate } from '#harness/spec/locate.ts';
import { yaml } from '#harness/spec/yaml.ts';
import { parseHeader, parseHeaderEnv, type ExtraHeader } from '#harness/core/extraHeaders.ts';
import { CONFIG_KEYS } from './runOptions.ts';

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

/** The run options a config file holds beside its targets, by key (cli/runOptions.ts declares each). */
export type ConfigOptions = Record<string, string | number | boolean | string[]>;

/** How the file writes each key (the run options' table, cli/runOptions.ts). */
type OptionKind = 'list' | 'boolean' | 'integer' | 'amount' | 'string';
const TOP_KEYS = ['targets', ...CONFIG_KEYS.keys()];

/** A config file read whole: its targets (none when it names none) and its run options. */
export interface ConfigFile {
  file: string;
  targets: TargetEntry[];
  options: ConfigOptions;
  /** `file:line:column key` of a top-level key, for a message about its value found later. */
  where(key: string): string;
}

/**
 * Reads a config file:
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
 *   models: [svc-v4-flash]                  # run options, each as its flag: --model
 *   only: [stream, schema]                  # --only
 *   skip: ['*.rejects-*']                   # --skip
 *   strict: true                            # --strict
 *   concurrency: 8                          # --concurrency
 *   timeout_ms: 30000                       # --timeout-ms
 *   deadline_ms: 90000                      # --deadline-ms
 *   without: [fim]                          # --without, for every target
 *   known: svc-conformance.known.yaml       # --known (known failures)
 *   strict_known: true                      # --strict-known
 *   clients: [openai, ai-sdk]               # --clients
 *   clients_gate: true                      # --clients-gate
 *
 * Targets and options are each optional, not both. A problem names the file, the line and the
 * field, and exits 2.
 */
export function readConfigFile(file: string): ConfigFile {
  let isFile: boolean;
  try {
    isFile = statSync(file).isFile();
  } catch {
    throw new UsageError(`run: --config ${file}: no such file.`);
  }
  if (!isFile) throw new UsageError(`run: --config ${file}: not a file (a config file is YAML, e.g. ${CONFIG_FILE}).`);
  const { LineCounter, parseDocument } = yaml();
  const lineCounter = new LineCounter();
  const doc = parseDocument(readFileSync(file, 'utf8'), { lineCounter, prettyErrors: false });
  const at = (path: (string | number)[], atKey = false) => {
    // An unknown key is pointed at itself, not at its value.
    const { line, column } = atKey ? locate(doc, lineCounter, path.slice(0, -1), String(path.at(-1))) : locate(doc, lineCounter, path);
    return `${file}:${line}:${column} ${path.join('.') || '/'}`;
  };
  const problem = (path: (string | number)[], message: string, atKey = false): never => {
    throw new UsageError(`run: ${at(path, atKey)}: ${message}`);
  };
  if (doc.errors.length > 0) {
    const pos = lineCounter.linePos(doc.errors[0]!.pos[0]);
    throw new UsageError(`run: ${file}:${pos.line}:${pos.col}: YAML syntax: ${doc.errors[0]!.message.split('\n')[0]}`);
  }
  const data = doc.toJS() as unknown;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return problem([], `holds neither targets nor run options: a mapping with ${TOP_KEYS.join(', ')} is expected`);
  const top = data as Record<string, unknown>;
  for (const k of Object.keys(top)) {
    if (!TOP_KEYS.includes(k)) problem([k], `unknown key \`${k}\` (known: ${TOP_KEYS.join(', ')})`, true);
  }
  const options: ConfigOptions = {};
  // In the file's order, as it is said back.
  for (const [key, v] of Object.entries(top)) {
    const option = CONFIG_KEYS.get(key);
    if (option === undefined || v === undefined) continue;
    const kind: OptionKind = option.config.kind;
    if (kind === 'list') {
      const list = typeof v === 'string' ? [v] : v;
      if (!Array.isArray(list) || list.length === 0 || list.some((x) => typeof x !== 'string' || x === '')) problem([key], 'a list of strings, e.g. [a, b]');
      (options as Record<string, unknown>)[key] = list;
    } else if (kind === 'string') {
      if (typeof v !== 'string' || v === '') problem([key], 'a non-empty string');
      (options as Record<string, unknown>)[key] = v;
    } else if (kind === 'amount') {
      if ((typeof v !== 'string' || v === '') && typeof v !== 'number') problem([key], `an amount, e.g. 0.05 (got ${JSON.stringify(v)})`);
      (options as Record<string, unknown>)[key] = v;
    } else if (kind === 'boolean') {
      if (typeof v !== 'boolean') problem([key], 'true or false');
      (options as Record<string, unknown>)[key] = v;
    } else {
      if (typeof v !== 'number' || !Number.isInteger(v)) problem([key], `an integer (got ${JSON.stringify(v)})`);
      (options as Record<string, unknown>)[key] = v;
    }
  }
  const hasTargets = top.targets !== undefined;
  if (!hasTargets && Object.keys(options).length === 0) problem([], `holds neither targets nor run options (${TOP_KEYS.join(', ')})`);
  return { file, targets: hasTargets ? targetsOf(top.targets, doc, lineCounter, file, problem) : [], options, where: (key) => at([key]) };
}

type Problem = (path: (string | number)[], message: string, atKey?: boolean) => never;

function targetsOf(targets: unknown, doc: Document, lineCounter: LineCounter, file: string, problem: Problem): TargetEntry[] {
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
