import type { CheckResult } from '#harness/core/outcome.ts';
import { causesOf, firstFailureOf, skipKindOf, standingOf, type Cause, type Judging, type RunRecord } from '#harness/results/index.ts';
import { mdCell, mdCode, mdFence, mdText } from './escape.ts';
import { CLIENT_REPRODUCER, COMPARISON, exchangeLine, failurePlace, replayLine, responseExcerpt } from './evidenceText.ts';
import { gatewayChanges, judgingNote, judgingOfRecord, judgingReasonNote, upstreamTrafficNote } from './view.ts';
import { LOAD_COLUMNS, LOAD_LEGEND, loadIntro, recoveryNote } from './loadView.ts';
import { targetLabel, attemptsLine, costNotes, judgedLine, notSentLines, scoreLine, duration, optionWords, orderedResults, outcomeHeadline, outcomeOf, plural, repeatLine, summaryByArea, timingNote, TRAFFIC_SCOPE, trafficNote, VERDICTS } from './view.ts';

const ICON: Readonly<Record<CheckResult['verdict'], string>> = { fail: '❌', flaky: '🔀', error: '⚠️', unsupported: '➖', skip: '⏭️', pass: '✅' };

function row(cells: readonly string[]): string {
  return `| ${cells.map(mdCell).join(' | ')} |`;
}

function refs(r: CheckResult): string {
  return r.specRefs.length > 0 ? r.specRefs.map(mdCode).join(', ') : 'none';
}

/** Whether a failing (or flaky) result fails the run, in the gate's words (results/gate.ts), which say it once. */
function countsFor(r: CheckResult, options: RunRecord['options']): string {
  const standing = standingOf(r, options);
  return standing.counts === 'none' ? 'does not fail the run' : standing.why;
}

/** A reason, with the attempts its verdict took when they were more than one a request. */
function withAttempts(r: CheckResult, text: string): string {
  const attempts = attemptsLine(r);
  return attempts === undefined ? text : `${text} (${attempts})`;
}

/** The classes of invalid request the spec names and the run did not send, folded, by why. */
function notSentList(r: CheckResult): string[] {
  const c = r.judged?.classes;
  if (c === undefined || c.notSent.length === 0) return [];
  return ['<details><summary>Classes not sent</summary>', '', ...notSentLines(c).map((l) => `- ${mdText(l)}`), '', '</details>', ''];
}

function failureSection(r: CheckResult, options: RunRecord['options']): string[] {
  const runs = repeatLine(r);
  const out = [`### ${ICON[r.verdict]} ${mdCode(r.checkId)}: ${mdText(r.title)}`, '', `**${r.severity}** (${countsFor(r, options)})${r.basis ? ` · basis: ${mdText(r.basis)}` : ''} · spec ${refs(r)} · area ${mdCode(r.area)} · ${duration(r.durationMs)}`, ''];
  if (runs) out.push(`Runs: ${mdText(runs)}`, '');
  const attempts = attemptsLine(r);
  if (attempts) out.push(`Attempts: ${attempts}`, '');
  const judged = judgedLine(r);
  if (judged) out.push(`Evidence: ${judged}`, '');
  out.push(...notSentList(r));
  for (const f of r.failures ?? []) {
    const place = failurePlace(f);
    out.push(`- ${mdText(f.message)}${place ? ` (${mdText(place)})` : ''}`);
    if (f.evidence) out.push(`  - ${mdCode(exchangeLine(f.evidence))}`);
    if (f.comparison) out.push(`  - ${COMPARISON}: ${mdCode(exchangeLine(f.comparison))}`);
    if (f.reproducer) {
      const replay = replayLine(f.reproducer);
      out.push('', `  Reproduce with${replay ? ` (${mdText(replay)})` : ''}:`, '', ...mdFence(f.reproducer.curl, 'sh').split('\n').map((l) => `  ${l}`), '');
      if (f.reproducer.client) out.push(`  ${CLIENT_REPRODUCER}:`, '', ...mdFence(f.reproducer.client, 'ts').split('\n').map((l) => `  ${l}`), '');
    }
  }
  return out;
}

/**
 * report.md, fit for a CI job summary: a header naming target, model, spec revision and reference
 * time; the outcome under the exit policy; verdicts by area; failures first with severity, spec
 * refs, message and a curl reproducer; errors, then skips with their reasons; tokens and cost.
 * Text from the endpoint is escaped (escape.ts), so a body cannot inject markup.
 */
/**
 * The distinct causes first: "30 failures from 6 causes", each with the checks and models it
 * affected and what came back the first time (status, content type, notable headers, the body's
 * first 500 bytes). Every failure is still listed below, check by check.
 */
export function causesSection(record: { results: readonly CheckResult[]; causes?: readonly Cause[] }, heading = '##'): string[] {
  const causes = record.causes ?? causesOf(record.results);
  if (causes.length === 0) return [];
  // Counted in checks, as every headline counts: a check with two defects is one failing check under two causes.
  const failing = new Set(causes.flatMap((c) => c.affected.map((a) => JSON.stringify([a.checkId, a.model])))).size;
  const out = [`${heading} Causes: ${plural(failing, 'failing check')} from ${plural(causes.length, 'cause')}`, ''];
  causes.forEach((c, i) => {
    const checks = c.affected.map((a) => `${mdCode(a.checkId)} (${mdText(a.model)})`);
    out.push(`${i + 1}. **${c.severity}** · ${mdText(c.message)} · ${plural(c.failures, 'failure')} in ${plural(c.affected.length, 'check')}: ${checks.slice(0, 12).join(', ')}${checks.length > 12 ? `, and ${checks.length - 12} more` : ''}`);
    const evidence = firstFailureOf(c, record.results)?.evidence;
    if (evidence) out.push(...responseExcerpt(evidence).map((l) => `   - ${mdText(l)}`));
  });
  out.push('');
  return out;
}

export function renderMarkdown(record: RunRecord): string {
  const outcome = outcomeOf(record);
  const s = record.summary;
  const results = orderedResults(record.results);
  const out: string[] = [];

  out.push(`# ${outcomeHeadline(outcome.outcome)}: ${mdText(record.model)} at ${mdCode(targetLabel(record.target))}`, '', `**${mdText(outcome.reason)}.**`, '');
  out.push('| | |', '|---|---|');
  out.push(row(['Target', `${mdCode(record.target.baseUrl)} (${record.target.kind}; messages ${mdCode(record.target.messagesBaseUrl)})`]));
  out.push(row(['Model', record.targetModel === record.model ? mdCode(record.model) : `${mdCode(record.model)} (asked as ${mdCode(record.targetModel)})`]));
  out.push(row(['Spec revision', `${mdCode(record.spec.revision)} (updated ${mdText(record.spec.updated)})`]));
  out.push(row(['Reference time', `${mdText(record.referenceTime.value)} (${record.referenceTime.source})`]));
  const opts = record.options;
  const run = [
    `${mdText(record.startedAt)} → ${mdText(record.finishedAt)}`,
    ...optionWords(opts, mdCode),
  ];
  out.push(row(['Run', run.join(' · ')]));
  out.push(row(['Harness', `${record.harness.name} ${mdText(record.harness.version)}`]));
  out.push(row(['Score', mdText(scoreLine(record))]));
  const judging = judgingOfRecord(record);
  out.push(row(['Judged', mdText(judgingNote(judging))]), '');

  const failureCounts = [
    `**${plural(s.mustFailures, 'must failure')}**`,
    plural(s.shouldFailures, 'should failure'),
    plural(s.advisoryFailures, 'advisory failure'),
  ];
  out.push(`${failureCounts.join(' · ')} · ${plural(s.error, 'error')}${s.flaky > 0 ? ` · ${s.flaky} flaky` : ''} · ${s.pass} passed · ${s.skip} skipped · ${s.unsupported} unsupported (${plural(s.total, 'check')})`, '');
  if (opts.repeat) out.push('> [!NOTE]', `> Every check ran ${opts.repeat} times (--repeat); a check that passed in some runs and failed in others is flaky${opts.allowFlaky ? ', and with --allow-flaky does not fail the run' : ', and counts as a failure of its severity'}.`, '');
  if (record.interrupted) out.push('> [!WARNING]', '> The run was interrupted before every check ran: this report is partial.', '');
  if (outcome.stale.length > 0) out.push('> [!WARNING]', `> Stale known failures: ${outcome.stale.length} ${outcome.stale.length === 1 ? 'entry of' : 'entries of'} ${mdCode(record.options.known!.source)} cover checks that pass now: remove ${outcome.stale.length === 1 ? 'it' : 'them'} (${outcome.stale.map((e) => `${mdCode(e.check)} at ${mdText(e.at)}`).join(', ')})${record.options.known!.strict ? '; --strict-known fails the run on them' : ''}.`, '');
  if (opts.without?.length) out.push('> [!NOTE]', `> Out of scope (--without): ${opts.without.map(mdCode).join(', ')}. Their checks are skipped, and the outcome is judged on the rest.`, '');
  if (s.error > 0) out.push('> [!NOTE]', `> ${plural(s.error, 'check')} could not be judged (see Errors). An error fails the run as a failure of its severity would.`, '');
  out.push(...notJudgedList(judging));

  out.push(...causesSection(record));
  out.push(...gatewaySection(record));
  out.push('## Verdicts by area', '');
  out.push(row(['Area', ...VERDICTS, 'total']), `|---|${VERDICTS.map(() => '--:|').join('')}--:|`);
  for (const [area, a] of summaryByArea(record.results)) out.push(row([mdCode(area), ...VERDICTS.map((v) => String(a[v])), String(a.total)]));
  out.push(row(['**all**', ...VERDICTS.map((v) => `**${s[v]}**`), `**${s.total}**`]), '');
  out.push(...loadSection(record));

  const failed = results.filter((r) => r.verdict === 'fail');
  if (failed.length > 0) {
    out.push(`## Failures (${failed.length})`, '');
    for (const r of failed) out.push(...failureSection(r, record.options));
  }

  const flaky = results.filter((r) => r.verdict === 'flaky');
  if (flaky.length > 0) {
    out.push(`## Flaky (${flaky.length})`, '', 'These checks passed in some runs and failed in others; the failures of the failing runs follow.', '');
    for (const r of flaky) out.push(...failureSection(r, record.options));
  }

  const errored = results.filter((r) => r.verdict === 'error');
  if (errored.length > 0) {
    out.push(`## Errors (${errored.length})`, '', 'These checks could not be judged: the endpoint refused, reset, stalled or answered unreadable bytes, or the harness broke. Each fails the run as a failure of its severity would.', '');
    out.push(row(['Check', 'Severity', 'Reason']), '|---|---|---|');
    for (const r of errored) out.push(row([`${ICON.error} ${mdCode(r.checkId)}`, r.severity, mdText(withAttempts(r, r.reason ?? ''))]));
    out.push('');
  }

  const skipped = results.filter((r) => r.verdict === 'skip' || r.verdict === 'unsupported');
  if (skipped.length > 0) {
    out.push(`## Skipped and unsupported (${skipped.length})`, '');
    out.push(row(['Check', 'Verdict', 'Reason']), '|---|---|---|');
    for (const r of skipped) out.push(row([`${ICON[r.verdict]} ${mdCode(r.checkId)}`, r.verdict === 'skip' ? `skip (${skipKindOf(r)})` : r.verdict, mdText(r.reason ?? '')]));
    out.push('');
  }

  const passed = results.filter((r) => r.verdict === 'pass');
  if (passed.length > 0) {
    out.push(`## Passed (${passed.length})`, '', `<details><summary>${plural(passed.length, 'check')} passed</summary>`, '');
    for (const r of passed) out.push(`- ${mdCode(r.checkId)}: ${mdText(r.title)} (${r.severity}${r.basis ? `, ${mdText(r.basis)}` : ''}): ${[judgedLine(r), attemptsLine(r)].filter(Boolean).join(', ')}`, ...notSentList(r).map((l) => (l === '' ? l : `  ${l}`)));
    out.push('', '</details>', '');
  }

  const u = record.usage;
  out.push('## Tokens and cost', '');
  out.push(row(['Prompt tokens', 'Completion tokens', 'Cache-hit tokens', 'Cost (USD)']), '|--:|--:|--:|--:|');
  out.push(row([String(u.promptTokens), String(u.completionTokens), String(u.cacheHitTokens), mdText(u.costUsd)]), '');
  for (const note of costNotes(record)) out.push(mdText(note), '');
  if (record.timings) out.push(`Time (the whole run): ${mdText(timingNote(record.timings))}`, '');
  if (record.traffic) out.push(`Requests (${TRAFFIC_SCOPE}): ${mdText(trafficNote(record.traffic))}`, '');
  return `${out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}

/** The leading reasons the outcome's checks were not judged (each listed with the rest under Skipped). */
function notJudgedList(j: Judging): string[] {
  if (j.reasons.length === 0) return [];
  const notJudged = j.total - j.judged;
  return [
    `Not judged, the leading ${j.reasons.length === 1 ? 'reason' : 'reasons'} (of ${plural(notJudged, j.scope)} not judged):`,
    '',
    ...j.reasons.map((r) => `- ${mdText(judgingReasonNote(r))}${r.handedTo === undefined ? '' : ` (handed to ${mdCode(r.handedTo)})`}`),
    '',
  ];
}

/** The load phase's steps (`--load N`), as a table: information beside the verdicts. */
function loadSection(record: RunRecord): string[] {
  const load = record.load;
  if (load === undefined) return [];
  const out = ['## Under load', '', mdText(loadIntro(load, record.model)), ''];
  out.push(row(LOAD_COLUMNS.map((c) => c.head)), `|${LOAD_COLUMNS.map(() => '--:|').join('')}`);
  for (const step of load.steps) out.push(row(LOAD_COLUMNS.map((c) => c.cell(step))));
  out.push('');
  const recovery = recoveryNote(load);
  if (recovery) out.push(mdText(recovery), '');
  if (load.endedEarly !== undefined) out.push(`The phase ended before its last step: ${mdText(load.endedEarly)}.`, '');
  out.push(mdText(LOAD_LEGEND), '');
  return out;
}

/** A gateway run's section: what the gateway changed, the upstream's value beside the client's, and its traffic upstream. */
function gatewaySection(record: RunRecord): string[] {
  const changes = gatewayChanges(record.results);
  const traffic = record.traffic?.upstream;
  if (changes.length === 0 && traffic === undefined) return [];
  const out = ['## What the gateway changed', ''];
  if (traffic) out.push(`Upstream traffic (${TRAFFIC_SCOPE}): ${mdText(upstreamTrafficNote(traffic))}.`, '');
  if (changes.length === 0) return [...out, 'Nothing of meaning: every value judged reached the other side as it was sent.', ''];
  out.push(row(['Change', 'Where', 'Upstream', 'Client', 'Checks']), '|---|---|---|---|---|');
  for (const c of changes) out.push(row([c.change, mdCode(c.path), mdCode(c.upstream), mdCode(c.client), c.checks.map(mdCode).join(', ') + (c.count > 1 ? ` (${c.count}x)` : '')]));
  return [...out, ''];
}
