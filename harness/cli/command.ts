import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { Clock } from '#harness/core/clock.ts';
import { UsageError } from '#harness/core/errors/index.ts';
import type { Schedule } from '#harness/runner/runStop.ts';

/** Exit codes of every command: CI reads them. */
export const EXIT = { ok: 0, conformanceFailure: 1, usage: 2, interrupted: 130, terminated: 143 } as const;

/** What the command list and `--help` show. Kept apart from the command's code, so help loads almost nothing. */
export interface CommandInfo {
  name: string;
  /** One line for the command list. */
  summary: string;
  /** Full help text, printed by `--help`. */
  help: string;
}

export interface Command extends CommandInfo {
  run(argv: string[], io: CommandIO): Promise<number>;
}

/** A command in the registry: its help, and its module, imported only when the command runs. */
export interface CommandEntry extends CommandInfo {
  load(): Promise<Command>;
}

/** What a command reads from and writes to its surroundings. */
export interface CommandIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** The calendar: the day the run happens (core/clock.ts). The machine's clock, or one a test hands. */
  calendar: Clock;
  /** The timers of a run's stop (its time ceiling, the stop's grace): the machine's, or ones a test hands (runner/runStop.ts). */
  schedule?: Schedule;
}

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * node:util parseArgs in strict mode, with its errors turned into UsageErrors that name the flag and
 * point at --help. `--help` is accepted by every command.
 */
export function parseFlags<O extends Options>(command: string, argv: string[], options: O, allowPositionals = false) {
  try {
    return parseArgs({ args: joinNegativeValues(argv, options), options: { ...options, help: { type: 'boolean', short: 'h' } }, strict: true, allowPositionals });
  } catch (err) {
    const code = (err as { code?: string }).code;
    const message = (err as Error).message.replace(/\. To specify a positional argument starting with a '-'.*$/s, '');
    if (code?.startsWith('ERR_PARSE_ARGS')) throw new UsageError(`${command}: ${message}. Run \`svc-conformance ${command} --help\` for the flags it takes.`);
    throw err;
  }
}

/**
 * `--concurrency -1` as `--concurrency=-1`: parseArgs refuses a value that starts with `-` as
 * ambiguous; a number is not a flag, so the command's own check can say what the value must be.
 */
function joinNegativeValues(argv: readonly string[], options: Options): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const next = argv[i + 1];
    const name = arg.startsWith('--') ? arg.slice(2) : undefined;
    if (name !== undefined && options[name]?.type === 'string' && next !== undefined && /^-[\d.]/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

/** A required string flag, or a UsageError naming it. */
export function requireFlag(command: string, name: string, value: string | undefined): string {
  if (value === undefined || value === '') throw new UsageError(`${command}: --${name} is required. Run \`svc-conformance ${command} --help\`.`);
  return value;
}

/** A flag that takes one of a few words; anything else is a UsageError listing them. */
export function choiceFlag<T extends string>(command: string, name: string, value: string | undefined, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new UsageError(`${command}: --${name} must be one of ${allowed.join(', ')} (got ${JSON.stringify(value)}). Run \`svc-conformance ${command} --help\`.`);
  }
  return value as T;
}
