import type { CommandIO } from '#harness/cli/command.ts';
import { systemClock } from '#harness/core/clock.ts';

/** A CommandIO that keeps what a command prints, for assertions; its calendar is the machine's clock (a test may hand its own). */
export function captureIO(): CommandIO & { out: string[]; err: string[]; text(): string } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    stdout: (t) => out.push(t),
    stderr: (t) => err.push(t),
    text: () => [...out, ...err].join('\n'),
    calendar: systemClock,
  };
}
