import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, onTestFinished, test, vi } from 'vitest';
import { captureIO } from '#harness/testing/captureIO.ts';
import { COMMANDS } from './commands/index.ts';
import { main } from './main.ts';

const BIN = fileURLToPath(new URL('../../bin/svc-conformance.js', import.meta.url));

/** A command with a bug: it throws what no command means to throw. */
function breakDiff(): void {
  const diff = COMMANDS.find((c) => c.name === 'diff')!;
  vi.spyOn(diff, 'load').mockResolvedValue({
    ...diff,
    run: async () => {
      throw new TypeError("Cannot read properties of undefined (reading 'results')");
    },
  });
}

afterEach(() => {
  vi.restoreAllMocks();
  delete process.env.SVC_CONFORMANCE_DEBUG;
});

describe('an internal error reaches the user as one line, exit 2', () => {
  test('no stack: the message, what to do, and how to see the stack', async () => {
    breakDiff();
    const io = captureIO();
    expect(await main(['diff', 'a.json', 'b.json'], io)).toBe(2);
    expect(io.out).toEqual([]);
    expect(io.err).toEqual([
      "svc-conformance: internal error: Cannot read properties of undefined (reading 'results'). Please report it with the command line (run again with SVC_CONFORMANCE_DEBUG=1 for the stack).",
    ]);
  });

  test('SVC_CONFORMANCE_DEBUG=1 shows the stack too', async () => {
    breakDiff();
    process.env.SVC_CONFORMANCE_DEBUG = '1';
    const io = captureIO();
    expect(await main(['diff', 'a.json', 'b.json'], io)).toBe(2);
    const err = io.err.join('\n');
    expect(err).toMatch(/^TypeError: Cannot read properties of undefined.*\n\s+at /);
    expect(io.err.at(-1)).toContain('Please report it with the command line and the stack above.');
  });
});

describe('an error nothing caught (a stray callback\'s) ends the process the same way', () => {
  test('one line, exit 2, not Node\'s stack and exit 1 ("conformance failure")', async () => {
    // A preloaded module throws from a timer once the emulator is serving: nothing in the harness catches it.
    const stray = 'data:text/javascript,setTimeout(()=>{throw new TypeError("stray")},1000)';
    const child = spawn(process.execPath, ['--import', stray, BIN, 'emulate'], { stdio: ['ignore', 'ignore', 'pipe'] });
    onTestFinished(() => {
      child.kill('SIGKILL');
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    // The emulator runs until a signal: only the stray error ends it, or the test's limit does (that is the failure).
    const code = await new Promise<number | null>((done) => child.on('close', done));
    expect(stderr).toBe('svc-conformance: internal error: stray. Please report it with the command line (run again with SVC_CONFORMANCE_DEBUG=1 for the stack).\n');
    expect(code).toBe(2);
  }, 90_000);
});
