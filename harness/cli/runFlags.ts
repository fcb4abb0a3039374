import { UsageError } from '#harness/core/errors/index.ts';
import { buildRegistry } from '#harness/checks/index.ts';
import { CLIENTS, DEFAULT_CLIENTS } from '#harness/checks/client/index.ts';
import { clientOfCheck, globMatcher, patternsOf, selectionProblems } from '#harness/checks/selection.ts';
import type { Spec } from '#harness/spec/model.ts';
import { clientNames, ENABLING } from './runOptions.ts';

/** The rules of `run` and `record` across options, after the table's pass (runOptions.ts readOptions): each broken one is a UsageError. */

/**
 * --repeat N: how many times the plan runs (default 1). `record` keeps one answer per request, and a
 * recording (--fixtures) answers each request with the bytes it recorded: neither can ask again, so
 * both refuse N > 1 instead of reporting repetitions that could never disagree.
 */
export function checkRepeat(command: string, n: number, replaying: boolean): void {
  if (n > 1 && command === 'record') throw new UsageError('record: --repeat applies to `run`; a recording keeps one answer per request. Record once, or run --repeat against the endpoint.');
  if (n > 1 && replaying) throw new UsageError(`${command}: --repeat asks the endpoint again, and a recording (--fixtures) answers with the bytes it recorded; drop --repeat, or point --base-url at the endpoint.`);
}

/** `--load N`: an option as the help writes it. */
const flagOf = (o: { flag: string; arg?: string }) => `--${o.flag}${o.arg ? ` ${o.arg}` : ''}`;

/**
 * --only and --skip (each repeatable, each value a comma-separated list), checked against the
 * checks the models would run: a selection that selects nothing would judge nothing, so it is a
 * usage error now, never a green "0 checks" later. `enabled`: the flags given that plan checks of
 * their own (`ENABLING`: --upstream-port, --load N); an --only that selects only checks of an
 * option not given names that option.
 */
export function selectionOf(command: string, spec: Spec, models: readonly string[], only: readonly string[] | undefined, skip: readonly string[] | undefined, clients: readonly string[], enabled: ReadonlySet<string> = new Set()): { only: string[]; skip: string[]; clients: string[] } {
  const selection = { only: patternsOf(only), skip: patternsOf(skip), clients: [...clients] };
  const plan = buildRegistry(spec).plan(spec, models);
  const off = ENABLING.filter((o) => !enabled.has(o.flag));
  // Checks of an option not given are not planned: selecting them would select nothing.
  const selectable = plan.filter((p) => !off.some((o) => o.enables.of(p.check))).map((p) => p.check.id);
  const needing = selection.only.flatMap((pattern) => {
    const matches = plan.filter((p) => globMatcher(pattern)(p.check.id));
    if (matches.length === 0 || matches.some((p) => selectable.includes(p.check.id))) return [];
    const by = off.filter((o) => matches.some((p) => o.enables.of(p.check)));
    return [`--only ${JSON.stringify(pattern)} selects ${by.map((o) => o.enables.what).join(' and ')}, which a run has only with ${by.map((o) => `${flagOf(o)}${o.enables.see ? ` (${o.enables.see})` : ''}`).join(' and ')}`];
  });
  if (needing.length > 0) throw new UsageError(`${command}: ${needing.join('; ')}.`);
  const wrong = selectionProblems(selection, selectable);
  if (wrong.length > 0) {
    const areas = [...new Set(selectable.map((id) => id.split('.')[0]))].join(', ');
    const planned = (o: (typeof off)[number]) => `${[...new Set(plan.filter((p) => o.enables.of(p.check)).map((p) => `${p.check.id.split('.')[0]}.*`))].join(', ')} (${o.enables.what}) with ${flagOf(o)}`;
    const elsewhere = off.length === 0 ? '' : ` Planned only with their option: ${off.map(planned).join('; ')}.`;
    throw new UsageError(`${command}: ${wrong.join('; ')} (of ${selectable.length} checks on ${models.join(', ')}). A pattern is part of a check id, or a glob with *; areas: ${areas}.${elsewhere}`);
  }
  return selection;
}

/**
 * --clients a,b: the pinned clients whose checks run (checks/client/index.ts), each named as
 * `list --clients` names it. Without the flag: for `record` every client (a client check sends
 * nothing of its own, so a recording holding every client's verdicts costs no request, and its
 * replay can choose any of them); for a replay, the clients whose checks its recording holds
 * (`recorded`: their ids), so it judges what the recording judged; else DEFAULT_CLIENTS.
 * `--clients none` runs no client check.
 */
export function clientsOf(command: string, value: string | undefined, recorded: readonly string[] = []): string[] {
  const held = [...new Set(recorded.map(clientOfCheck).filter((c) => c !== undefined))];
  if (value === undefined) return command === 'record' ? CLIENTS.map((c) => c.name) : held.length > 0 ? held : [...DEFAULT_CLIENTS];
  return clientNames(command, value);
}
