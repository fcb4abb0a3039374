import type { CheckResult, Failure } from '#harness/core/outcome.ts';
import type { CommandIO } from './command.ts';
import type { LoadProgress } from '#harness/runner/loadPhase.ts';
import { recoveryWindowText } from '#harness/checks/load/run.ts';

/** Longest reason a progress line shows; the report holds the whole. */
const MAX_REASON = 300;

/**
 * Text quoted from an answer (a model's reply, an error body) as one line: line breaks, tabs and
 * other control characters escaped as JSON writes them, cut at `max` characters. A progress line
 * is one line, whatever the endpoint sent.
 */
export function oneLine(text: string, max = MAX_REASON): string {
  const flat = text.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, (c) => {
    const code = c.charCodeAt(0);
    // JSON's short forms (\n, \t) where it has them; a line or paragraph separator JSON leaves raw.
    return code < 0x20 ? JSON.stringify(c).slice(1, -1) : `\\u${code.toString(16).padStart(4, '0')}`;
  });
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/** What a hand-off waits on, in words: which checks, and what it becomes either way. */
function pending(handed: readonly Failure[]): string {
  const owners = [...new Set(handed.map((f) => f.ownedBy!))].join(' and ');
  const stands = handed.every((f) => f.ownedOn === 'run') ? 'blocked' : 'inconclusive';
  return `handed to ${owners}, settled once every check has ended: ${stands} if it fails on it, else this check's failure`;
}

/**
 * What tells repeats apart: an error's typed cause (a dead route's checks, abandoned or never sent,
 * read as one), else the verdict's words.
 */
const sameCause = (r: CheckResult, why: string) => (r.cause ? `${r.cause.code}: ${r.cause.what}` : why);

/**
 * One stderr line per finished check: count, verdict, id, model, which run of a repeated run
 * (`--repeat N`), and why when it did not pass (a flaky check: how many of its runs passed).
 * Checks that end one after the other with the same verdict and the same reason (a dead endpoint,
 * a refused key: every check says the same) print once, then one line with how many more did; the
 * report lists each.
 */
export function progressLine(io: CommandIO) {
  let same: { key: string; more: number; verdict: string } | undefined;
  const flush = () => {
    if (same !== undefined && same.more > 0) io.stderr(`  … and ${same.more} more ${same.more === 1 ? 'check' : 'checks'}: ${same.verdict.trim()}, for the same reason`);
    same = undefined;
  };
  return (r: CheckResult, n: number, planned: number, repetition?: { index: number; of: number }, target?: string) => {
    // A defect handed to another check is settled once every check has ended (runner/handoff.ts): pending, not a plain failure.
    const handed = r.verdict === 'fail' && r.failures !== undefined && r.failures.length > 0 && r.failures.every((f) => f.ownedBy !== undefined) ? r.failures : undefined;
    const mark = r.verdict === 'pass' ? 'pass ' : handed ? 'pend ' : r.verdict.padEnd(5);
    const why = r.verdict === 'pass' ? '' : r.reason ? `: ${oneLine(r.reason)}` : r.failures?.[0] ? `: ${oneLine(r.failures[0].message)}${handed ? ` (${pending(handed)})` : ''}` : '';
    const key = why === '' ? undefined : `${target ?? ''} ${r.verdict}${sameCause(r, why)}`;
    if (key !== undefined && key === same?.key) {
      same.more += 1;
      if (n === planned) flush();
      return;
    }
    flush();
    if (key !== undefined) same = { key, more: 0, verdict: mark };
    const run = repetition ? ` [run ${repetition.index}/${repetition.of}]` : '';
    // Several targets at once: each line says whose check it was.
    io.stderr(`  [${String(n).padStart(String(planned).length)}/${planned}] ${mark} ${r.checkId} (${r.model}${target === undefined ? '' : ` at ${target}`})${run}${why}`);
  };
}

/**
 * The load phase's progress (run --load): a line as each step begins and every 20 requests within
 * it: the step, the requests in flight it holds, and what came back so far on the model; and one as
 * the recovery after the peak begins, with its window and why it is that long.
 */
export function loadProgressLine(io: CommandIO) {
  let last: string | undefined;
  return (p: LoadProgress, target?: string) => {
    if (p.recovery) {
      io.stderr(`load  ${p.model}${target ? ` @ ${target}` : ''}: the peak is over: asking at rest until HTTP 200, for at most ${recoveryWindowText(p.recovery)}`);
      return;
    }
    const step = `${target ?? ''}|${p.model}|${p.step}`;
    if (step === last && p.sent % 20 !== 0) return;
    last = step;
    io.stderr(`load  ${p.model}${target ? ` @ ${target}` : ''}: step ${p.step}/${p.steps}, ${p.inFlight} in flight: ${p.sent} sent, ${p.answered} answered, ${p.refused} refused`);
  };
}
