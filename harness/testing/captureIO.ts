import type { CommandIO } from '#harness/cli/command.ts';

/** A CommandIO that keeps what a command prints, for assertions. */
export function captureIO(): CommandIO & { out: string[]; err: string[]; text(): string } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    stdout: (t) => out.push(t),
    stderr: (t) => err.push(t),
    text: () => [...out, ...err].join('\n'),
  };
}
