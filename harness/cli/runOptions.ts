import type { Spec } from '#harness/spec/model.ts';
import { ADAPTIVE } from '#harness/transport/adaptiveLimit.ts';
import { DEFAULT_TIMING } from '#harness/transport/timing.ts';
import { DEFAULT_MAX_IN_FLIGHT } from '#harness/runner/maxInFlight.ts';
import { CLIENT_NAMES, DEFAULT_CLIENTS } from '#harness/checks/client/names.ts';
import { UsageError } from '#harness/core/errors/index.ts';
import { parseUsd } from '#harness/spec/money.ts';

/**
 * Every option of `run` and `record`, declared once. What derives from this table: the flags the
 * parser takes (`flagsOf`), the keys svc-conformance.yaml takes and how each is written there
 * (`cli/configFile.ts` reads `CONFIG_KEYS`), the checks of a file's values (`cli/configFlags.ts`
 * runs `check`), the options part of `run --help` (`optionsHelp`), and which options a run's record
 * carries and `merge` compares (`RECORDED`). Tests keep the record's options, the report schema and
 * the docs in step with it. A new option is a row here, its feature, and its line in docs/config.md.
 *
 * Light on purpose: `run --help` loads it without the command's code.
 */
/** What a check of a value may need, loaded only when asked: the spec, and its features (spec/features.ts). */
export interface CheckInputs {
  spec(): Spec;
  features(): readonly string[];
}

export interface RunOption {
  /** The flag, without its dashes. */
  flag: string;
  /** How node:util parseArgs reads it; `multiple`: repeatable, each value kept. */
  type: 'string' | 'boolean';
  multiple?: true;
  /** What its value is called in the help: `--concurrency N`. */
  arg?: string;
  /** Its lines in `run --help`, after the flag. */
  help: readonly string[];
  /** `record` takes it too, unless `run` only. */
  only?: 'run' | 'record';
  /**
   * Its key in svc-conformance.yaml and how the file writes it (`list`: a YAML list or one string,
   * joined with commas for a flag that takes a list; `integer`; `amount`: a number or a string;
   * `string`; `boolean`), or why the file has no key for it.
   */
  config: { key: string; kind: 'list' | 'integer' | 'amount' | 'string' | 'boolean' } | { none: string };
  /** Checks a value as the flag would be (a UsageError naming the flag), before anything is sent. */
  check?(command: string, value: string | boolean | string[], ctx: CheckInputs): void;
  /**
   * Where a run's record keeps it (a key of `RunRecord['options']`), and whether the shards of one
   * cell must agree on it to be merged (`agree`), or each has its own (`own`, with why).
   */
  record?: { field: string; merge: 'agree' | { own: string } };
  /**
   * The checks planned only in a run that gives this option (runner/plan.ts plans them so; a test
   * holds the two in step): `what` names them, `of` tells one of them by its declaration
   * (checks/define.ts), `see` says where they are described. An --only that selects none but
   * these, in a run without the option, is told which option runs them.
   */
  enables?: { what: string; of(check: { phase?: string; upstream?: boolean }): boolean; see?: string };
}

/** An integer flag's value in [min, max], or a UsageError naming the flag and an example. */
export function integer(command: string, name: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || n > max) throw new UsageError(`${command}: --${name} must be ${min === 1 ? 'a positive integer' : 'an integer'} from ${min} to ${max} (got ${JSON.stringify(value)}), e.g. --${name} ${min === 1 ? 4 : 1}.`);
  return n;
}

/** The bounds of each integer option, where its value is checked (`run` and the config file alike). */
export const RANGES = { concurrency: [1, 256], 'timeout-ms': [100, 3_600_000], 'deadline-ms': [100, 3_600_000], runs: [1, 100_000], coverage: [0, 100_000], load: [0, 4096], seed: [0, 2 ** 31 - 1], repeat: [1, 1000], 'upstream-port': [1, 65535], 'max-in-flight': [1, 4096] } as const;

const inRange = (flag: keyof typeof RANGES) => (command: string, value: string | boolean | string[]) => {
  const [min, max] = RANGES[flag];
  integer(command, flag, String(value), min, max);
};

/** The spec's feature names, for --help; a test keeps this list and the spec in step. */
export const FEATURE_LIST = 'chat, models, balance, fim, prefix_completion, messages, streaming, tools, json_output, thinking, caching';

/** A list in help lines of at most 56 characters, as the help's right column holds them. */
function wrapped(text: string): string[] {
  const lines: string[] = [];
  for (const word of text.split(' ')) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + word.length + 1 <= 56) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines;
}

const perTarget = (key: string) => ({ none: `set per target in a config file: targets[].${key}` });

export const RUN_OPTIONS = [
  { flag: 'base-url', type: 'string', multiple: true, arg: 'URL', help: ['a live endpoint (repeatable)'], config: perTarget('base_url') },
  {
    flag: 'config',
    type: 'string',
    arg: 'FILE',
    help: [
      'targets and run options from a file (docs/config.md):',
      'every option below but those a target sets, --shard,',
      '--fault, --fixtures, --fast and --spec. Default:',
      './svc-conformance.yaml (or .yml) when there is one, said',
      'on stderr. Flags win over the file; --base-url,',
      '--fixtures or --fault replace its targets',
    ],
    config: { none: 'it names the file' },
  },
  { flag: 'api-key-env', type: 'string', arg: 'VAR', help: ['environment variable holding the key (default SVC_API_KEY)'], config: perTarget('api_key_env') },
  { flag: 'empty-balance-key-env', type: 'string', arg: 'VAR', help: ['a second key whose balance is empty (checks the 402 rule)'], config: perTarget('empty_balance_key_env') },
  { flag: 'messages-base-url', type: 'string', arg: 'URL', help: ['the messages-format base (default {base_url}/anthropic)'], config: perTarget('messages_base_url') },
  {
    flag: 'model',
    type: 'string',
    multiple: true,
    arg: 'ID',
    help: ['a model of the spec to cover (repeatable; default every', 'current model, plus the legacy aliases for lifecycle)'],
    config: { key: 'models', kind: 'list' },
    check(command, value, { spec }) {
      const known = Object.keys(spec().models);
      const wrong = (value as string[]).find((m) => !known.includes(m));
      if (wrong !== undefined) throw new UsageError(`${command}: --model ${wrong} is not a model of the spec (${known.join(', ')}).`);
    },
  },
  {
    flag: 'model-map',
    type: 'string',
    multiple: true,
    arg: 'SPEC_ID=ID',
    help: [
      "send the spec's model SPEC_ID as the target's id ID",
      '(repeatable, or pairs joined by commas). ID is any',
      'string the target takes, split from SPEC_ID at the',
      'first =: emu,svc-v4-flash, openrouter/deepseek/x,',
      'ollama:llama3, name@1 (a comma starts another pair',
      'only before another SPEC_ID=)',
    ],
    config: perTarget('model_map'),
  },
  { flag: 'header', type: 'string', multiple: true, arg: "'NAME: VALUE'", help: ['send this header with every request (repeatable), for', 'gateways that route on their own headers'], config: perTarget('headers') },
  {
    flag: 'header-env',
    type: 'string',
    multiple: true,
    arg: 'NAME=VAR',
    help: ['the same, its value read from the environment variable', 'VAR and kept secret: redacted wherever it could be', 'written; reproducers read it back as $VAR'],
    config: perTarget('header_env'),
  },
  {
    flag: 'upstream-port',
    type: 'string',
    arg: 'PORT',
    help: [
      'judge a gateway (one --base-url, or a --config of one',
      'target) against the harness as its upstream: the',
      'embedded emulator is served on 127.0.0.1:PORT for the',
      'gateway to call, every request is paired with what',
      'reached the upstream, and gateway.* checks say what the',
      'gateway changed (docs/endpoints.md)',
    ],
    config: { none: 'the gateway is configured to call this port, so the command line that starts it names it' },
    check: inRange('upstream-port'),
    enables: { what: 'the gateway checks', of: (c) => c.upstream === true, see: 'docs/endpoints.md, "Judging a gateway"' },
  },
  {
    flag: 'upstream-url',
    type: 'string',
    arg: 'URL',
    help: ['with --upstream-port: a tap in front of this real service', 'instead of the emulator (nothing answered on purpose)'],
    config: { none: 'it goes with --upstream-port' },
  },
  {
    flag: 'upstream-key-env',
    type: 'string',
    arg: 'VAR',
    help: ['with --upstream-port: the key the gateway must send', 'upstream, read from VAR (default: any key, said)'],
    config: { none: 'it goes with --upstream-port' },
  },
  {
    flag: 'only',
    type: 'string',
    multiple: true,
    arg: 'PATTERN,...',
    help: ['checks whose id contains a PATTERN (or matches a * glob);', 'repeatable. A pattern that matches no check is an', 'error (exit 2): a run that selects nothing is no pass'],
    config: { key: 'only', kind: 'list' },
    record: { field: 'only', merge: 'agree' },
  },
  { flag: 'skip', type: 'string', multiple: true, arg: 'PATTERN,...', help: ['leave these checks out (repeatable)'], config: { key: 'skip', kind: 'list' }, record: { field: 'skip', merge: 'agree' } },
  {
    flag: 'without',
    type: 'string',
    arg: 'F,...',
    help: ['features the endpoint does not offer, from the spec:', ...wrapped(FEATURE_LIST), '(a unique start is enough: prefix). Their checks are', 'skipped, out of scope; the exit code depends on the rest'],
    config: { key: 'without', kind: 'list' },
    check: (command, value, { features }) => void parseWithout(command, String(value), features()),
    record: { field: 'without', merge: 'agree' },
  },
  { flag: 'strict', type: 'boolean', help: ['also fail on should-checks, and report unlisted fields'], config: { key: 'strict', kind: 'boolean' }, record: { field: 'strict', merge: 'agree' } },
  {
    flag: 'clients',
    type: 'string',
    arg: 'NAME,...',
    help: [
      'the client libraries each answer is also handed to',
      '(client.* checks, no extra request):',
      ...wrapped(`${CLIENT_NAMES.join(', ')}, or none; default ${DEFAULT_CLIENTS.join(',')}.`),
      '`list --clients` shows their pinned versions',
    ],
    config: { key: 'clients', kind: 'list' },
    check: (command, value) => void clientNames(command, String(value)),
    record: { field: 'clients', merge: 'agree' },
  },
  { flag: 'clients-gate', type: 'boolean', help: ['a client check that fails fails the run (they are', 'advisory otherwise: the description names no client)'], config: { key: 'clients_gate', kind: 'boolean' }, record: { field: 'clientsGate', merge: 'agree' } },
  {
    flag: 'now',
    type: 'string',
    arg: 'ISO',
    help: ["reference time for lifecycle checks (and the embedded", "emulator's clock); default: the server's Date header"],
    config: { key: 'now', kind: 'string' },
    check: (command, value) => void instant(command, String(value)),
  },
  {
    flag: 'concurrency',
    type: 'string',
    arg: 'N',
    help: [
      'requests in flight, fixed at N; default: adaptive, from',
      `${ADAPTIVE.initial} up to ${ADAPTIVE.max} (or --max-in-flight) while answers come back`,
      'as fast as at rest, down on 429, 503, silence or rising',
      'latency (the reports say where it went and why)',
    ],
    config: { key: 'concurrency', kind: 'integer' },
    check: inRange('concurrency'),
  },
  {
    flag: 'max-in-flight',
    type: 'string',
    arg: 'N',
    help: [
      "at most N requests in flight: the adaptive limit's cap",
      `(${ADAPTIVE.max} when N is higher), and across the targets that`,
      `run at once (default ${DEFAULT_MAX_IN_FLIGHT}). With --budget-usd they run one`,
      'after another',
    ],
    config: { key: 'max_in_flight', kind: 'integer' },
    check: inRange('max-in-flight'),
  },
  {
    flag: 'timeout-ms',
    type: 'string',
    arg: 'N',
    help: ['how long to wait for response headers, and between two', 'pieces of a body, before the check ends in error', `(default ${DEFAULT_TIMING.headersMs}; connecting: at most ${DEFAULT_TIMING.connectMs})`],
    config: { key: 'timeout_ms', kind: 'integer' },
    check: inRange('timeout-ms'),
  },
  {
    flag: 'deadline-ms',
    type: 'string',
    arg: 'N',
    help: [
      "the most one answer's body may take, headers to last",
      `byte (default ${DEFAULT_TIMING.totalMs}; a request asking for few tokens`,
      'gets less: 30 s + 0.1 s per max_tokens). A route that',
      'got no answer in time is declared silent: nothing more',
      'is sent there. Only silence is: any HTTP answer, 5xx',
      "too, is the check's evidence",
    ],
    config: { key: 'deadline_ms', kind: 'integer' },
    check: inRange('deadline-ms'),
  },
  { flag: 'runs', type: 'string', arg: 'N', help: ['property-test runs (default 10)'], config: { key: 'runs', kind: 'integer' }, check: inRange('runs'), record: { field: 'runs', merge: 'agree' } },
  {
    flag: 'coverage',
    type: 'string',
    arg: 'N',
    help: [
      'classes of invalid request the coverage phase sends per',
      'operation and model (default 26 for the chat request,',
      '8 for fill-in-the-middle and the messages format: a',
      'full run at 800 ms stays within 20 s); 0 sends none;',
      'the reports list the classes not sent',
    ],
    config: { key: 'coverage', kind: 'integer' },
    check: inRange('coverage'),
    record: { field: 'coverage', merge: 'agree' },
  },
  {
    flag: 'load',
    type: 'string',
    arg: 'N',
    help: [
      'after the other checks, a load phase per model: the',
      'requests in flight ramp 1, N/4, N/2, N (streamed and',
      'not, prompts of many lengths) and the load.* checks',
      'judge every answer: refused as described, not crossed,',
      'streams finished, none hung, recovered; the reports show',
      'time to first token and throughput per step. 0 (the',
      'default): no load phase. With --shard, each shard',
      'drives its share of N',
    ],
    config: { key: 'load', kind: 'integer' },
    check: inRange('load'),
    record: { field: 'load', merge: 'agree' },
    enables: { what: 'the load phase', of: (c) => c.phase === 'load', see: 'docs/checks.md, "The load phase"' },
  },
  { flag: 'seed', type: 'string', arg: 'N', help: ['property-test seed (default 1)'], config: { key: 'seed', kind: 'integer' }, check: inRange('seed'), record: { field: 'seed', merge: 'agree' } },
  {
    flag: 'repeat',
    type: 'string',
    arg: 'N',
    help: [
      'run the whole plan N times (default 1), each time',
      'afresh (no answer shared between runs), and merge',
      "each check's verdicts: agreeing runs keep theirs;",
      'a pass and a fail make it flaky; reports add its',
      'runs, passes, fails, pass@k and pass^k. N x the cost',
    ],
    config: { key: 'repeat', kind: 'integer' },
    check: inRange('repeat'),
    record: { field: 'repeat', merge: 'agree' },
  },
  { flag: 'allow-flaky', type: 'boolean', help: ['a flaky check does not fail the run (it is still', 'reported flaky)'], config: { key: 'allow_flaky', kind: 'boolean' }, record: { field: 'allowFlaky', merge: 'agree' } },
  {
    flag: 'budget-usd',
    type: 'string',
    arg: 'USD',
    help: ['the most the run may spend: the cost is estimated first', '(a dry run on the embedded emulator) and a run above', 'it is refused; a run that reaches it stops sending'],
    config: { key: 'budget_usd', kind: 'amount' },
    check: (command, value) => void budgetOf(command, String(value)),
  },
  {
    flag: 'shard',
    type: 'string',
    arg: 'I/N',
    help: ['run share I of N of the checks (merge with `merge`)'],
    config: { none: "a shard is one CI job's share of a run: each job gives its own" },
    record: { field: 'shard', merge: { own: 'each shard names itself; merge joins their names' } },
  },
  { flag: 'report-dir', type: 'string', arg: 'DIR', help: ['where reports go (default reports/)'], config: { key: 'report_dir', kind: 'string' } },
  { flag: 'json', type: 'string', arg: 'FILE', help: ['also write the whole machine report (every cell) to FILE'], config: { key: 'json', kind: 'string' } },
  {
    flag: 'step-summary',
    type: 'string',
    arg: 'FILE',
    help: ["also append summary.md to FILE, as a CI job's summary", 'takes it: --step-summary "$GITHUB_STEP_SUMMARY"'],
    config: { key: 'step_summary', kind: 'string' },
  },
  {
    flag: 'baseline',
    type: 'string',
    arg: 'FILE',
    help: [
      'exit 1 only on regressions: checks that fail the run now',
      'and were judged in FILE (a report.json or a --json',
      'bundle) without failing there; FILE must hold every',
      'cell (target and model) of this run',
    ],
    config: { key: 'baseline', kind: 'string' },
    record: { field: 'baseline', merge: 'agree' },
  },
  {
    flag: 'known',
    type: 'string',
    arg: 'FILE',
    help: ['known failures (default ./svc-conformance.known.yaml when', 'there is one): a failure an entry covers does not fail', 'the run until the entry expires (docs/outcomes.md)'],
    config: { key: 'known', kind: 'string' },
    record: { field: 'known', merge: { own: "each cell's entries, as the file says of that cell" } },
  },
  { flag: 'strict-known', type: 'boolean', help: ['a known failure that now passes (a stale entry) fails', 'the run, so the file is kept true'], config: { key: 'strict_known', kind: 'boolean' } },
  { flag: 'fault', type: 'string', multiple: true, arg: 'NAME', help: ['embedded emulator only: break this rule (see', '`svc-conformance emulate --list-faults`)'], config: { none: "the emulator's faults are a test's choice, named on its command line" } },
  {
    flag: 'fixtures',
    type: 'string',
    arg: 'DIR',
    help: ['replay a recording (`record --out DIR`) instead of a', 'live target: loopback only, clock from the recording'],
    config: { none: "a replay replaces the file's targets, so it is named on the command line" },
  },
  { flag: 'fast', type: 'boolean', help: ['with --fixtures: stream events without their spacing'], config: { none: 'it applies to --fixtures only' } },
  { flag: 'out', type: 'string', arg: 'DIR', only: 'record', help: ['where the recording goes: every exchange and a manifest'], config: { none: 'record reads no config file' } },
  { flag: 'spec', type: 'string', arg: 'DIR', help: ['spec directory (default: the spec/ shipped with the harness)'], config: { none: "the file's options are checked against the spec, so it is named first" } },
  { flag: 'quiet', type: 'boolean', help: ['no progress lines'], config: { key: 'quiet', kind: 'boolean' } },
] as const satisfies readonly RunOption[];

type ValueOf<O> = O extends { type: 'boolean' } ? boolean : O extends { multiple: true } ? string[] : string;

/** The flags' values as the parser gives them (and the config file's, in the same shape), by flag. */
export type RunFlagValues = { [O in (typeof RUN_OPTIONS)[number] as O['flag']]?: ValueOf<O> };

/** The options `command` takes. */
export const optionsOf = (command: 'run' | 'record'): readonly RunOption[] => RUN_OPTIONS.filter((o: RunOption) => o.only === undefined || o.only === command);

/** The options node:util parseArgs takes for `command`. */
export function flagsOf(command: 'run' | 'record'): Record<string, { type: 'string' | 'boolean'; multiple?: boolean }> {
  return Object.fromEntries(optionsOf(command).map((o) => [o.flag, o.multiple ? { type: o.type, multiple: true } : { type: o.type }]));
}

/** The config file's keys, each with its option. */
export const CONFIG_KEYS: ReadonlyMap<string, RunOption & { config: { key: string; kind: 'list' | 'integer' | 'amount' | 'string' | 'boolean' } }> = new Map(
  RUN_OPTIONS.flatMap((o: RunOption) => ('key' in o.config ? [[o.config.key, o as RunOption & { config: { key: string; kind: 'list' | 'integer' | 'amount' | 'string' | 'boolean' } }] as const] : [])),
);

/** The options that enable checks of their own (`enables`): the gateway checks, the load phase. */
export const ENABLING: readonly (RunOption & { enables: NonNullable<RunOption['enables']> })[] = RUN_OPTIONS.flatMap((o: RunOption) => (o.enables ? [o as RunOption & { enables: NonNullable<RunOption['enables']> }] : []));

/** The options a run's record carries, and what `merge` does with each. */
export const RECORDED: readonly { flag: string; field: string; merge: 'agree' | { own: string } }[] = RUN_OPTIONS.flatMap((o: RunOption) => (o.record ? [{ flag: o.flag, ...o.record }] : []));

/** `Usage: svc-conformance run [--base-url URL]... [--strict] ...`, wrapped as the help is. */
export function usageOf(command: 'run' | 'record'): string {
  const head = `Usage: svc-conformance ${command} `;
  const words = optionsOf(command).map((o) => `[--${o.flag}${o.arg ? ` ${o.arg}` : ''}]${o.multiple ? '...' : ''}`);
  const lines: string[] = [];
  for (const w of words) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + w.length + 1 <= 140) lines[lines.length - 1] = `${last} ${w}`;
    else lines.push(w);
  }
  return lines.map((l, i) => (i === 0 ? head : ' '.repeat(head.length)) + l).join('\n');
}

/** `  --flag ARG` and its help lines, as `run --help` lists them. */
export function optionsHelp(command: 'run' | 'record'): string {
  const column = 25;
  return optionsOf(command)
    .flatMap((o) => {
      const head = `  --${o.flag}${o.arg ? ` ${o.arg}` : ''}`;
      const [first = '', ...rest] = o.help;
      const lines = head.length < column ? [`${head.padEnd(column)}${first}`] : [head, `${' '.repeat(column)}${first}`];
      return [...lines, ...rest.map((l) => `${' '.repeat(column)}${l}`)];
    })
    .join('\n');
}

export function instant(command: string, text: string): Date {
  const d = new Date(text);
  if (Number.isNaN(d.getTime()) || !/^\d{4}-\d{2}-\d{2}T/.test(text)) throw new UsageError(`${command}: --now ${JSON.stringify(text)} is not an ISO 8601 instant (e.g. 2026-07-24T15:58:00Z).`);
  return d;
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

/** --without F,...: features of the spec, each named whole or by a start that fits one only. */
export function parseWithout(command: string, text: string | undefined, features: readonly string[]): string[] {
  if (!text) return [];
  return text.split(',').map((t) => t.trim()).filter((t) => t !== '').map((t) => {
    const fits = features.includes(t) ? [t] : features.filter((f) => f.startsWith(t));
    if (fits.length !== 1) throw new UsageError(`${command}: --without ${JSON.stringify(t)} ${fits.length === 0 ? 'is no feature of the spec' : `fits ${fits.join(' and ')}`}; the features are ${features.join(', ')}.`);
    return fits[0]!;
  });
}

/** --clients a,b: pinned clients as `list --clients` names them (checks/client/names.ts), or none. */
export function clientNames(command: string, value: string): string[] {
  const names = value.split(',').map((p) => p.trim()).filter((p) => p !== '');
  if (names.length === 1 && names[0] === 'none') return [];
  const wrong = names.filter((n) => !(CLIENT_NAMES as readonly string[]).includes(n));
  if (names.length === 0 || wrong.length > 0) throw new UsageError(`${command}: --clients ${wrong.length > 0 ? `${wrong.map((w) => JSON.stringify(w)).join(', ')} ${wrong.length === 1 ? 'is no pinned client' : 'are no pinned clients'}` : 'names no client'}; the clients are ${CLIENT_NAMES.join(', ')} (or none), e.g. --clients ${DEFAULT_CLIENTS.join(',')}. \`svc-conformance list --clients\` shows their versions.`);
  return [...new Set(names)];
}
