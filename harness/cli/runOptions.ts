import { resolve } from 'node:path';
import type { Spec } from '#harness/spec/model.ts';
import { ADAPTIVE } from '#harness/transport/adaptiveLimit.ts';
import { DEFAULT_TIMING } from '#harness/transport/timing.ts';
import { DEFAULT_MAX_IN_FLIGHT } from '#harness/runner/maxInFlight.ts';
import { CLIENT_NAMES, DEFAULT_CLIENTS } from '#harness/checks/client/names.ts';
import { UsageError } from '#harness/core/errors/index.ts';
import { parseHeader, parseHeaderEnv } from '#harness/core/extraHeaders.ts';
import { parseUsd } from '#harness/spec/money.ts';
import { parseModelMap } from './modelMap.ts';

/**
 * Every option of `run` and `record`, declared once, each row whole: its flag and config key, how
 * its value is read (`value`: kind, range, list syntax, as one parser), its default, the
 * RunSettings field it sets (`sets`), its help lines, and whether a run's record carries it and
 * how `merge` combines it. What derives from this table: the flags the parser takes (`flagsOf`),
 * the keys svc-conformance.yaml takes and how each is written there (`CONFIG_KEYS`, read by
 * cli/configFile.ts), the checks of a file's values and of the command line's (`readOptions`, one
 * pass in the table's order), the run's settings (`settingsOf`, and RunSettings' type:
 * runner/runConfig.ts `OptionSettings`, completed here), `run --help` (`optionsHelp`), which
 * options a record carries (`RECORDED`), and docs/config.md's option reference (cli/optionsDoc.ts,
 * written by `npm run docs:config`). A new option is a row here, its feature, and the page written
 * again.
 *
 * Light on purpose: `run --help` loads it without the command's code.
 */
/** What a check of a value may need, loaded only when asked: the spec, and its features (spec/features.ts). */
export interface CheckInputs {
  spec(): Spec;
  features(): readonly string[];
}

/** Where a value is read: the command and flag a message names, and what the check may need. */
export interface ReadAt extends CheckInputs {
  command: string;
  flag: string;
}

/** How a config file writes a value: a YAML list (or one string), an integer, an amount (a number or a string), a string, a boolean. */
export type ConfigKind = 'list' | 'integer' | 'amount' | 'string' | 'boolean';

/**
 * How an option's value is read: as the flag gives it (a string, a boolean, or the strings of a
 * repeatable flag) to what the run uses, or a UsageError naming the flag, before anything is sent.
 */
export interface Parser<T> {
  /** How the config file writes it (a list is joined with commas for a flag that takes one string). */
  kind: ConfigKind;
  /** The value in words, for docs/config.md. */
  says: string;
  read(value: string | boolean | string[], at: ReadAt): T;
}

/** A default the run fills in after the pass, from more than the flags (`after`: what it is, for the docs). */
export interface FilledAfter {
  after: string;
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
  /** Its key in svc-conformance.yaml (written as `value.kind` says), or why the file has no key for it. */
  config: { key: string } | { none: string };
  /** How its value is read. */
  value: Parser<unknown>;
  /** Its value when not given (a FilledAfter: filled by the run once the pass is done); none: undefined. */
  default?: unknown;
  /** The field of RunSettings (runner/runConfig.ts) it sets; none: the command reads it (targets, outputs, gate). */
  sets?: string;
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

/** The parsers the rows share. */
const integerIn = (min: number, max: number): Parser<number> & { min: number; max: number } => ({ kind: 'integer', says: `an integer from ${min} to ${max}`, min, max, read: (v, at) => integer(at.command, at.flag, String(v), min, max)! });
const text = (says: string): Parser<string> => ({ kind: 'string', says, read: (v) => String(v) });
const texts = (says: string): Parser<string[]> => ({ kind: 'list', says, read: (v) => [...(v as string[])] });
const path = (says: string): Parser<string | undefined> => ({ kind: 'string', says, read: (v) => (v === '' ? undefined : resolve(String(v))) });
const anInstant: Parser<Date> = { kind: 'string', says: 'an ISO 8601 instant', read: (v, at) => instant(at.command, String(v)) };
const on: Parser<boolean> = { kind: 'boolean', says: 'true or false', read: (v) => v === true };
/** Patterns, each value a comma-separated list (checks/selection.ts reads them). */
const patterns: Parser<string[]> = { kind: 'list', says: 'check-id patterns (part of an id, or a * glob), comma-separated or repeated', read: (v) => (v as string[]).flatMap(commaList) };

/** --model: models of the spec. */
const specModels: Parser<string[]> = {
  kind: 'list',
  says: 'model ids of the spec',
  read(value, { command, spec }) {
    const known = Object.keys(spec().models);
    const wrong = (value as string[]).find((m) => !known.includes(m));
    if (wrong !== undefined) throw new UsageError(`${command}: --model ${wrong} is not a model of the spec (${known.join(', ')}).`);
    return [...(value as string[])];
  },
};
/** --upstream-url: where the tap sends what the gateway asks. */
const httpUrl: Parser<string> = {
  kind: 'string',
  says: 'an http or https URL',
  read(v, { command }) {
    if (!/^https?:\/\/[^/]/.test(String(v))) throw new UsageError(`${command}: --upstream-url must be an http or https URL (got ${JSON.stringify(v)}), e.g. https://api.example.com.`);
    return String(v);
  },
};
/** `a, b,,c` -> [a, b, c]. */
const commaList = (value: string): string[] => value.split(',').map((p) => p.trim()).filter((p) => p !== '');

/** The spec's feature names, for --help; a test keeps this list and the spec in step. */
export const FEATURE_LIST = 'chat, models, balance, fim, prefix_completion, messages, streaming, tools, json_output, thinking, caching';

/** A list in help lines of at most 56 characters, as the help's right column holds them. */
function wrapped(words: string): string[] {
  const lines: string[] = [];
  for (const word of words.split(' ')) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + word.length + 1 <= 56) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines;
}

const perTarget = (key: string) => ({ none: `set per target in a config file: targets[].${key}` });

export const RUN_OPTIONS = [
  { flag: 'base-url', type: 'string', multiple: true, arg: 'URL', help: ['a live endpoint (repeatable)'], config: perTarget('base_url'), value: texts('URLs') },
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
    value: text('a file'),
  },
  { flag: 'api-key-env', type: 'string', arg: 'VAR', help: ['environment variable holding the key (default SVC_API_KEY)'], config: perTarget('api_key_env'), value: text('an environment variable'), default: 'SVC_API_KEY' },
  { flag: 'empty-balance-key-env', type: 'string', arg: 'VAR', help: ['a second key whose balance is empty (checks the 402 rule)'], config: perTarget('empty_balance_key_env'), value: text('an environment variable') },
  { flag: 'messages-base-url', type: 'string', arg: 'URL', help: ['the messages-format base (default {base_url}/anthropic)'], config: perTarget('messages_base_url'), value: text('a URL') },
  {
    flag: 'model',
    type: 'string',
    multiple: true,
    arg: 'ID',
    help: ['a model of the spec to cover (repeatable; default every', 'current model, plus the legacy aliases for lifecycle)'],
    config: { key: 'models' },
    value: specModels,
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
    value: { kind: 'list', says: 'SPEC_ID=ID pairs, comma-separated or repeated', read: (v, at) => parseModelMap(at.command, v as string[]) } satisfies Parser<Record<string, string>>,
    default: {},
  },
  { flag: 'header', type: 'string', multiple: true, arg: "'NAME: VALUE'", help: ['send this header with every request (repeatable), for', 'gateways that route on their own headers'], config: perTarget('headers'), value: { kind: 'list', says: "'NAME: VALUE' headers", read: (v, at) => (v as string[]).map((h) => parseHeader(`${at.command}: --header`, h)) }, default: [] },
  {
    flag: 'header-env',
    type: 'string',
    multiple: true,
    arg: 'NAME=VAR',
    help: ['the same, its value read from the environment variable', 'VAR and kept secret: redacted wherever it could be', 'written; reproducers read it back as $VAR'],
    config: perTarget('header_env'),
    value: { kind: 'list', says: 'NAME=VAR pairs', read: (v, at) => (v as string[]).map((h) => parseHeaderEnv(`${at.command}: --header-env`, h)) },
    default: [],
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
    value: integerIn(1, 65535),
    enables: { what: 'the gateway checks', of: (c) => c.upstream === true, see: 'docs/endpoints.md, "Judging a gateway"' },
  },
  {
    flag: 'upstream-url',
    type: 'string',
    arg: 'URL',
    help: ['with --upstream-port: a tap in front of this real service', 'instead of the emulator (nothing answered on purpose)'],
    config: { none: 'it goes with --upstream-port' },
    value: httpUrl,
  },
  { flag: 'upstream-key-env', type: 'string', arg: 'VAR', help: ['with --upstream-port: the key the gateway must send', 'upstream, read from VAR (default: any key, said)'], config: { none: 'it goes with --upstream-port' }, value: text('an environment variable') },
  {
    flag: 'only',
    type: 'string',
    multiple: true,
    arg: 'PATTERN,...',
    help: ['checks whose id contains a PATTERN (or matches a * glob);', 'repeatable. A pattern that matches no check is an', 'error (exit 2): a run that selects nothing is no pass'],
    config: { key: 'only' },
    value: patterns,
    default: [],
    sets: 'only',
    record: { field: 'only', merge: 'agree' },
  },
  { flag: 'skip', type: 'string', multiple: true, arg: 'PATTERN,...', help: ['leave these checks out (repeatable)'], config: { key: 'skip' }, value: patterns, default: [], sets: 'skip', record: { field: 'skip', merge: 'agree' } },
  {
    flag: 'without',
    type: 'string',
    arg: 'F,...',
    help: ['features the endpoint does not offer, from the spec:', ...wrapped(FEATURE_LIST), '(a unique start is enough: prefix). Their checks are', 'skipped, out of scope; the exit code depends on the rest'],
    config: { key: 'without' },
    value: { kind: 'list', says: 'features of the spec, comma-separated', read: (v, at) => parseWithout(at.command, String(v), at.features()) } satisfies Parser<string[]>,
    default: [],
    record: { field: 'without', merge: 'agree' },
  },
  { flag: 'strict', type: 'boolean', help: ['also fail on should-checks, and report unlisted fields'], config: { key: 'strict' }, value: on, default: false, sets: 'strict', record: { field: 'strict', merge: 'agree' } },
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
    config: { key: 'clients' },
    value: { kind: 'list', says: 'pinned client names, comma-separated, or none', read: (v, at) => clientNames(at.command, String(v)) } satisfies Parser<string[]>,
    default: { after: 'every client for `record`; a replay, the clients its recording holds; else ' + DEFAULT_CLIENTS.join(', ') } satisfies FilledAfter,
    sets: 'clients',
    record: { field: 'clients', merge: 'agree' },
  },
  { flag: 'clients-gate', type: 'boolean', help: ['a client check that fails fails the run (they are', 'advisory otherwise: the description names no client)'], config: { key: 'clients_gate' }, value: on, default: false, sets: 'clientsGate', record: { field: 'clientsGate', merge: 'agree' } },
  { flag: 'now', type: 'string', arg: 'ISO', help: ["reference time for lifecycle checks (and the embedded", "emulator's clock); default: the server's Date header"], config: { key: 'now' }, value: anInstant, sets: 'now' },
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
    config: { key: 'concurrency' },
    value: integerIn(1, 256),
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
    config: { key: 'max_in_flight' },
    value: integerIn(1, 4096),
    sets: 'maxInFlight',
  },
  {
    flag: 'timeout-ms',
    type: 'string',
    arg: 'N',
    help: ['how long to wait for response headers, and between two', 'pieces of a body, before the check ends in error', `(default ${DEFAULT_TIMING.headersMs}; connecting: at most ${DEFAULT_TIMING.connectMs})`],
    config: { key: 'timeout_ms' },
    value: integerIn(100, 3_600_000),
    sets: 'timeoutMs',
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
    config: { key: 'deadline_ms' },
    value: integerIn(100, 3_600_000),
    sets: 'deadlineMs',
  },
  { flag: 'runs', type: 'string', arg: 'N', help: ['property-test runs (default 10)'], config: { key: 'runs' }, value: integerIn(1, 100_000), default: 10, sets: 'runs', record: { field: 'runs', merge: 'agree' } },
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
    config: { key: 'coverage' },
    value: integerIn(0, 100_000),
    sets: 'coverage',
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
    config: { key: 'load' },
    // 0 is no load phase, as not giving it: the record then carries no load.
    value: { ...integerIn(0, 4096), read: (v, at) => integerIn(0, 4096).read(v, at) || undefined } satisfies Parser<number | undefined>,
    sets: 'load',
    record: { field: 'load', merge: 'agree' },
    enables: { what: 'the load phase', of: (c) => c.phase === 'load', see: 'docs/checks.md, "The load phase"' },
  },
  { flag: 'seed', type: 'string', arg: 'N', help: ['property-test seed (default 1)'], config: { key: 'seed' }, value: integerIn(0, 2 ** 31 - 1), default: 1, sets: 'seed', record: { field: 'seed', merge: 'agree' } },
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
    config: { key: 'repeat' },
    value: integerIn(1, 1000),
    default: 1,
    sets: 'repeat',
    record: { field: 'repeat', merge: 'agree' },
  },
  { flag: 'allow-flaky', type: 'boolean', help: ['a flaky check does not fail the run (it is still', 'reported flaky)'], config: { key: 'allow_flaky' }, value: on, default: false, sets: 'allowFlaky', record: { field: 'allowFlaky', merge: 'agree' } },
  {
    flag: 'budget-usd',
    type: 'string',
    arg: 'USD',
    help: ['the most the run may spend: the cost is estimated first', '(a dry run on the embedded emulator) and a run above', 'it is refused; a run that reaches it stops sending'],
    config: { key: 'budget_usd' },
    value: { kind: 'amount', says: 'a positive amount of USD', read: (v, at) => ({ usd: String(v), pico: budgetOf(at.command, String(v)) }) } satisfies Parser<{ usd: string; pico: bigint }>,
  },
  {
    flag: 'shard',
    type: 'string',
    arg: 'I/N',
    help: ['run share I of N of the checks (merge with `merge`)'],
    config: { none: "a shard is one CI job's share of a run: each job gives its own" },
    value: { kind: 'string', says: 'I/N, 1 <= I <= N', read: (v, at) => parseShard(at.command, String(v))! } satisfies Parser<{ index: number; count: number }>,
    sets: 'shard',
    record: { field: 'shard', merge: { own: 'each shard names itself; merge joins their names' } },
  },
  { flag: 'report-dir', type: 'string', arg: 'DIR', help: ['where reports go (default reports/)'], config: { key: 'report_dir' }, value: text('a directory'), default: 'reports' },
  { flag: 'json', type: 'string', arg: 'FILE', help: ['also write the whole machine report (every cell) to FILE'], config: { key: 'json' }, value: text('a file') },
  { flag: 'step-summary', type: 'string', arg: 'FILE', help: ["also append summary.md to FILE, as a CI job's summary", 'takes it: --step-summary "$GITHUB_STEP_SUMMARY"'], config: { key: 'step_summary' }, value: text('a file'), sets: 'stepSummary' },
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
    config: { key: 'baseline' },
    value: text('a file'),
    record: { field: 'baseline', merge: 'agree' },
  },
  {
    flag: 'known',
    type: 'string',
    arg: 'FILE',
    help: ['known failures (default ./svc-conformance.known.yaml when', 'there is one): a failure an entry covers does not fail', 'the run until the entry expires (docs/outcomes.md)'],
    config: { key: 'known' },
    value: text('a file'),
    record: { field: 'known', merge: { own: "each cell's entries, as the file says of that cell" } },
  },
  { flag: 'strict-known', type: 'boolean', help: ['a known failure that now passes (a stale entry) fails', 'the run, so the file is kept true'], config: { key: 'strict_known' }, value: on, default: false },
  { flag: 'fault', type: 'string', multiple: true, arg: 'NAME', help: ['embedded emulator only: break this rule (see', '`svc-conformance emulate --list-faults`)'], config: { none: "the emulator's faults are a test's choice, named on its command line" }, value: texts('fault names (`emulate --list-faults`)'), default: [] },
  { flag: 'fixtures', type: 'string', arg: 'DIR', help: ['replay a recording (`record --out DIR`) instead of a', 'live target: loopback only, clock from the recording'], config: { none: "a replay replaces the file's targets, so it is named on the command line" }, value: text('a recording directory') },
  { flag: 'fast', type: 'boolean', help: ['with --fixtures: stream events without their spacing'], config: { none: 'it applies to --fixtures only' }, value: on, default: false },
  { flag: 'out', type: 'string', arg: 'DIR', only: 'record', help: ['where the recording goes: every exchange and a manifest'], config: { none: 'record reads no config file' }, value: path('a directory'), sets: 'recordDir' },
  { flag: 'spec', type: 'string', arg: 'DIR', help: ['spec directory (default: the spec/ shipped with the harness)'], config: { none: "the file's options are checked against the spec, so it is named first" }, value: path('a spec directory'), sets: 'specDir' },
  { flag: 'quiet', type: 'boolean', help: ['no progress lines'], config: { key: 'quiet' }, value: on, default: false, sets: 'quiet' },
] as const satisfies readonly RunOption[];

type Row = (typeof RUN_OPTIONS)[number];
type ValueOf<O> = O extends { type: 'boolean' } ? boolean : O extends { multiple: true } ? string[] : string;

/** The flags' values as the parser gives them (and the config file's, in the same shape), by flag. */
export type RunFlagValues = { [O in Row as O['flag']]?: ValueOf<O> };

/** What a row's parser makes of its value. */
type Read<O> = O extends { value: { read(...args: never[]): infer T } } ? T : never;
/** A row's value after the pass: read, else its default, else undefined (a FilledAfter too: the run fills it). */
type Given<O> = O extends { default: FilledAfter } ? Read<O> | undefined : O extends { default: unknown } ? Read<O> : Read<O> | undefined;

/** Every option's value, read, by flag: what `readOptions` gives. */
export type OptionValues = { [O in Row as O['flag']]: Given<O> };

/** The settings the rows set, by field: required where the row has a default, else optional. */
type TableSettings = { [O in Row as O extends { sets: string; default: unknown } ? O['sets'] : never]: Read<O> } & { [O in Row as O extends { sets: string } ? (O extends { default: unknown } ? never : O['sets']) : never]?: Read<O> };

/** The fields whose default the run fills in after the pass (FilledAfter). */
type FilledFields = Row extends infer O ? (O extends { sets: infer F; default: FilledAfter } ? F : never) : never;

// RunSettings (runner/runConfig.ts) is what the table sets, and the settings that are no option.
declare module '#harness/runner/runConfig.ts' {
  interface OptionSettings extends TableSettings {}
}

/** A default the run fills in after the pass. */
export const isFilledAfter = (d: unknown): d is FilledAfter => typeof d === 'object' && d !== null && 'after' in d;

/** The options `command` takes. */
export const optionsOf = (command: 'run' | 'record'): readonly RunOption[] => RUN_OPTIONS.filter((o: RunOption) => o.only === undefined || o.only === command);

/**
 * Every option `command` takes, read by its row in the table's order (so a command line with
 * several mistakes names the same one first: the one `run --help` lists first), each not given
 * left at its default. Rules across options are the command's, after this pass.
 */
export function readOptions(command: 'run' | 'record', values: RunFlagValues, inputs: CheckInputs): OptionValues {
  const given: Record<string, unknown> = {};
  for (const o of optionsOf(command)) {
    const value = (values as Record<string, string | boolean | string[] | undefined>)[o.flag];
    given[o.flag] = value !== undefined ? o.value.read(value, { ...inputs, command, flag: o.flag }) : isFilledAfter(o.default) ? undefined : structuredClone(o.default);
  }
  return given as OptionValues;
}

/** The settings the table's rows set, from the pass; those filled after it (FilledAfter) are the run's to add. */
export function settingsOf(given: OptionValues): Omit<TableSettings, FilledFields> {
  const set = (RUN_OPTIONS as readonly RunOption[]).flatMap((o) => {
    const value = (given as Record<string, unknown>)[o.flag];
    return o.sets === undefined || value === undefined || isFilledAfter(o.default) ? [] : [[o.sets, value] as const];
  });
  return Object.fromEntries(set) as Omit<TableSettings, FilledFields>;
}

/** The options node:util parseArgs takes for `command`. */
export function flagsOf(command: 'run' | 'record'): Record<string, { type: 'string' | 'boolean'; multiple?: boolean }> {
  return Object.fromEntries(optionsOf(command).map((o) => [o.flag, o.multiple ? { type: o.type, multiple: true } : { type: o.type }]));
}

/** The rows that have `field` set, each as that narrower type: one filter for every derived list. */
function rowsWith<K extends keyof RunOption>(field: K): (RunOption & Required<Pick<RunOption, K>>)[] {
  return (RUN_OPTIONS as readonly RunOption[]).filter((o): o is RunOption & Required<Pick<RunOption, K>> => o[field] !== undefined);
}

/** The config file's keys, each with its option. */
export const CONFIG_KEYS: ReadonlyMap<string, RunOption & { config: { key: string } }> = new Map(
  (RUN_OPTIONS as readonly RunOption[]).flatMap((o) => ('key' in o.config ? [[o.config.key, o as RunOption & { config: { key: string } }] as const] : [])),
);

/** The options that enable checks of their own (`enables`): the gateway checks, the load phase. */
export const ENABLING = rowsWith('enables');

/** The options a run's record carries, and what `merge` does with each. */
export const RECORDED: readonly { flag: string; field: string; merge: 'agree' | { own: string } }[] = rowsWith('record').map((o) => ({ flag: o.flag, ...o.record }));

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
  return commaList(text).map((t) => {
    const fits = features.includes(t) ? [t] : features.filter((f) => f.startsWith(t));
    if (fits.length !== 1) throw new UsageError(`${command}: --without ${JSON.stringify(t)} ${fits.length === 0 ? 'is no feature of the spec' : `fits ${fits.join(' and ')}`}; the features are ${features.join(', ')}.`);
    return fits[0]!;
  });
}

/** --clients a,b: pinned clients as `list --clients` names them (checks/client/names.ts), or none. */
export function clientNames(command: string, value: string): string[] {
  const names = commaList(value);
  if (names.length === 1 && names[0] === 'none') return [];
  const wrong = names.filter((n) => !(CLIENT_NAMES as readonly string[]).includes(n));
  if (names.length === 0 || wrong.length > 0) throw new UsageError(`${command}: --clients ${wrong.length > 0 ? `${wrong.map((w) => JSON.stringify(w)).join(', ')} ${wrong.length === 1 ? 'is no pinned client' : 'are no pinned clients'}` : 'names no client'}; the clients are ${CLIENT_NAMES.join(', ')} (or none), e.g. --clients ${DEFAULT_CLIENTS.join(',')}. \`svc-conformance list --clients\` shows their versions.`);
  return [...new Set(names)];
}

/** --shard I/N: this job's share of the checks. */
export function parseShard(command: string, text: string | undefined): { index: number; count: number } | undefined {
  if (text === undefined) return undefined;
  const m = /^(\d+)\/(\d+)$/.exec(text);
  const index = Number(m?.[1]);
  const count = Number(m?.[2]);
  if (!m || count < 1 || index < 1 || index > count) throw new UsageError(`${command}: --shard takes I/N with 1 <= I <= N (got ${JSON.stringify(text)}).`);
  return { index, count };
}
