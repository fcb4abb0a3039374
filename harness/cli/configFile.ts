import { readFileSync, statSync } from 'node:fs';
import type { Document, LineCounter } from 'yaml';
import { isUsageError, UsageError } from '#harness/core/errors/index.ts';
import { locate } from '#harness/spec/locate.ts';
import { yaml } from '#harness/spec/yaml.ts';
import { parseHeader, parseHeaderEnv, type ExtraHeader } from '#harness/core/extraHeaders.ts';
import { CONFIG_KEYS, type ConfigKind } from './runOptions.ts';

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
 * What a value must also pass, beyond its kind (the option's own check, as its flag is checked):
 * the problem in words, or undefined when it is good.
 */
export type CheckValue = (key: string, value: string | number | boolean | string[]) => string | undefined;

/** Edits (insert, delete, replace) from one word to another, for naming the key a typo meant. */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const next = [i];
    for (let j = 1; j <= b.length; j += 1) next.push(Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)));
    row = next;
  }
  return row[b.length]!;
}

/** `unknown key `concurency`: did you mean `concurrency`? (known: ...)`: the nearest known key, when one is a typo away. */
function unknownKey(key: string, known: readonly string[]): string {
  const near = known.map((k) => ({ k, d: distance(key, k) })).filter(({ d }) => d <= Math.max(1, Math.floor(key.length / 4))).sort((a, b) => a.d - b.d)[0];
  return `unknown key \`${key}\`${near ? `: did you mean \`${near.k}\`?` : ''} (known: ${known.join(', ')})`;
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
 * Targets and options are each optional, not both. Every problem is found in one reading, each
 * named by file, line, column and key (an unknown key with the keys known there), and together
 * they are one UsageError (exit 2): a file with two typos is fixed in one go, not one run each.
 * `check`: what a value must pass beyond its kind (cli/configFlags.ts: its flag's own check).
 */
export function readConfigFile(file: string, check?: CheckValue): ConfigFile {
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
  const problems: string[] = [];
  const problem: Problem = (path, message, atKey = false) => {
    problems.push(`${at(path, atKey)}: ${message}`);
    return undefined;
  };
  const refuse = () => {
    if (problems.length === 1) return new UsageError(`run: ${problems[0]}`);
    return new UsageError(`run: ${file}: ${problems.length} problems:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  };
  if (doc.errors.length > 0) {
    for (const e of doc.errors) {
      const pos = lineCounter.linePos(e.pos[0]);
      problems.push(`${file}:${pos.line}:${pos.col}: YAML syntax: ${e.message.split('\n')[0]}`);
    }
    throw refuse();
  }
  const data = doc.toJS() as unknown;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    problem([], `holds neither targets nor run options: a mapping with ${TOP_KEYS.join(', ')} is expected`);
    throw refuse();
  }
  const top = data as Record<string, unknown>;
  const options: ConfigOptions = {};
  let targets: TargetEntry[] = [];
  // In the file's order, as options are said back and problems listed.
  for (const [key, v] of Object.entries(top)) {
    if (!TOP_KEYS.includes(key)) {
      problem([key], unknownKey(key, TOP_KEYS), true);
      continue;
    }
    if (key === 'targets') {
      targets = targetsOf(v, doc, lineCounter, file, problem, (message) => problems.push(message));
      continue;
    }
    const option = CONFIG_KEYS.get(key);
    if (option === undefined || v === undefined) continue;
    // How the file writes it: as its row's parser reads it (cli/runOptions.ts).
    const kind: ConfigKind = option.value.kind;
    let value: string | number | boolean | string[] | undefined;
    if (kind === 'list') {
      const list = typeof v === 'string' ? [v] : v;
      if (!Array.isArray(list) || list.length === 0 || list.some((x) => typeof x !== 'string' || x === '')) problem([key], 'a list of strings, e.g. [a, b]');
      else value = list as string[];
    } else if (kind === 'string') {
      if (typeof v !== 'string' || v === '') problem([key], 'a non-empty string');
      else value = v;
    } else if (kind === 'amount') {
      if ((typeof v !== 'string' || v === '') && typeof v !== 'number') problem([key], `an amount, e.g. 0.05 (got ${JSON.stringify(v)})`);
      else value = v;
    } else if (kind === 'boolean') {
      if (typeof v !== 'boolean') problem([key], 'true or false');
      else value = v;
    } else if (typeof v !== 'number' || !Number.isInteger(v)) problem([key], `an integer (got ${JSON.stringify(v)})`);
    else value = v;
    if (value === undefined) continue;
    const wrong = check?.(key, value);
    if (wrong !== undefined) problem([key], wrong);
    else options[key] = value;
  }
  const hasTargets = top.targets !== undefined;
  if (!hasTargets && Object.keys(options).length === 0 && problems.length === 0) problem([], `holds neither targets nor run options (${TOP_KEYS.join(', ')})`);
  if (problems.length > 0) throw refuse();
  return { file, targets, options, where: (key) => at([key]) };
}

/** Notes a problem at a path of the file (an unknown key: at the key itself); the reading goes on. */
type Problem = (path: (string | number)[], message: string, atKey?: boolean) => undefined;

function targetsOf(targets: unknown, doc: Document, lineCounter: LineCounter, file: string, problem: Problem, noted: (message: string) => void): TargetEntry[] {
  if (!Array.isArray(targets) || targets.length === 0) return problem(['targets'], 'a non-empty list of targets is required') ?? [];
  return targets.flatMap((t, i): TargetEntry[] => {
    if (typeof t !== 'object' || t === null || Array.isArray(t)) return problem(['targets', i], 'each target is a mapping with base_url') ?? [];
    const entry = t as Record<string, unknown>;
    for (const k of Object.keys(entry)) if (!KEYS.has(k)) problem(['targets', i, k], unknownKey(k, [...KEYS]), true);
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
      if (typeof v !== 'object' || v === null || Array.isArray(v) || Object.values(v).some((x) => typeof x !== 'string')) return problem(['targets', i, k], 'a mapping from header names to strings') ?? [];
      return Object.entries(v as Record<string, string>);
    };
    const where = (k: string, header: string) => {
      const { line, column } = locate(doc, lineCounter, ['targets', i, k], header);
      return `${file}:${line}:${column} targets.${i}.${k}.${header}`;
    };
    // A header the parser refuses is noted with the others, not thrown alone.
    const header = (parse: () => ExtraHeader): ExtraHeader[] => {
      try {
        return [parse()];
      } catch (err) {
        if (!isUsageError(err)) throw err;
        noted(err.message);
        return [];
      }
    };
    const headers = [
      ...pairs('headers').flatMap(([n, v]) => header(() => parseHeader(where('headers', n), `${n}: ${v}`))),
      ...pairs('header_env').flatMap(([n, v]) => header(() => parseHeaderEnv(where('header_env', n), `${n}=${v}`))),
    ];
    const without = entry.without;
    if (without !== undefined && (!Array.isArray(without) || without.some((w) => typeof w !== 'string'))) problem(['targets', i, 'without'], 'a list of feature names, e.g. [fim, balance]');
    const messagesBaseUrl = text('messages_base_url', false);
    const emptyBalanceKeyEnv = text('empty_balance_key_env', false);
    const apiKeyEnv = text('api_key_env', false);
    const baseUrl = text('base_url', true);
    if (baseUrl === undefined) return [];
    return [
      {
        baseUrl,
        apiKeyEnv: apiKeyEnv ?? 'SVC_API_KEY',
        ...(messagesBaseUrl ? { messagesBaseUrl } : {}),
        ...(emptyBalanceKeyEnv ? { emptyBalanceKeyEnv } : {}),
        modelMap: (map as Record<string, string> | undefined) ?? {},
        headers,
        without: (without as string[] | undefined) ?? [],
      },
    ];
  });
}
