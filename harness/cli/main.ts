import { systemClock } from '#harness/core/clock.ts';
import { isHarnessError } from '#harness/core/errors/index.ts';
import { EXIT, type CommandEntry, type CommandIO } from './command.ts';
import { COMMANDS } from './commands/index.ts';
import { VERSION } from './version.ts';

function usage(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    'Usage: svc-conformance <command> [flags]',
    '',
    'A contract test suite and conformance harness for the chat-completion service described in spec/.',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Every command answers --help. Exit codes: 0 success, 1 conformance failure, 2 usage or input error.',
  ].join('\n');
}

/**
 * Lines to a process stream. When its reader goes away (`svc-conformance diff A B | head`) the
 * broken pipe is not an error of ours: later lines are dropped and the command ends as it would
 * have, with its own exit code, so `set -o pipefail` still sees a failed run as failed.
 */
function lineWriter(stream: NodeJS.WriteStream): (text: string) => void {
  let gone = false;
  let listening = false;
  return (text) => {
    if (!listening) {
      listening = true;
      stream.on('error', (err: NodeJS.ErrnoException) => {
        if (err.code !== 'EPIPE' && err.code !== 'ERR_STREAM_DESTROYED') throw err;
        gone = true;
      });
    }
    if (!gone && !stream.destroyed) stream.write(`${text}\n`);
  };
}

const defaultIO: CommandIO = { stdout: lineWriter(process.stdout), stderr: lineWriter(process.stderr), calendar: systemClock };

/** Set to 1 to see the stack of an internal error. */
const DEBUG_ENV = 'SVC_CONFORMANCE_DEBUG';

/** Runs one command line; returns the exit code. Errors print one line, never a stack (unless SVC_CONFORMANCE_DEBUG=1). */
export async function main(argv: string[], io: CommandIO = defaultIO): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(usage());
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  if (name === '--version' || name === '-v') {
    io.stdout(VERSION);
    return EXIT.ok;
  }
  const command: CommandEntry | undefined = COMMANDS.find((c) => c.name === name);
  if (!command) {
    io.stderr(`svc-conformance: unknown command \`${name}\`. Commands: ${COMMANDS.map((c) => c.name).join(', ')}. Run \`svc-conformance --help\`.`);
    return EXIT.usage;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout(command.help);
    return EXIT.ok;
  }
  try {
    return await (await command.load()).run(rest, io);
  } catch (err) {
    if (isHarnessError(err)) {
      io.stderr(err.message);
      return err.exitCode;
    }
    // A bug of ours: one line for the user, the stack only when asked for.
    const message = err instanceof Error ? err.message : String(err);
    if (process.env[DEBUG_ENV] === '1') io.stderr(err instanceof Error && err.stack ? err.stack : message);
    io.stderr(`svc-conformance: internal error: ${message}. Please report it with the command line${process.env[DEBUG_ENV] === '1' ? ' and the stack above' : ` (run again with ${DEBUG_ENV}=1 for the stack)`}.`);
    return EXIT.usage;
  }
}
