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

const defaultIO: CommandIO = {
  stdout: (t) => process.stdout.write(`${t}\n`),
  stderr: (t) => process.stderr.write(`${t}\n`),
};

/** Runs one command line; returns the exit code. Harness errors print their message, never a stack. */
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
    throw err;
  }
}
