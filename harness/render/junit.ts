import type { CheckResult } from '#harness/core/outcome.ts';
import { cellGate, OUTCOME_WORD, skipKindOf, standingOf, targetKey, type RunRecord } from '#harness/results/index.ts';
import { escapeXmlAttr as attr, escapeXmlText as text } from './escape.ts';
import { failureText } from './evidenceText.ts';
import { answerTimesNote, areasOf, cellName, concurrencyNote, orderedResults, repeatLine, TRAFFIC_SCOPE } from './view.ts';

/** Seconds with millisecond precision, as JUnit's `time` attribute wants. */
function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

/** JUnit's timestamp is an ISO 8601 date-time without a zone (UTC here). */
function timestamp(iso: string): string {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? iso : new Date(t).toISOString().slice(0, 19);
}

/** A failing result as text: what the check is, then each failure with its evidence and reproducer. */
function failuresText(r: CheckResult): string {
  const failures = r.failures ?? [];
  const head = [`${r.title}`, `severity: ${r.severity}`, ...(r.basis ? [`basis: ${r.basis}`] : []), `spec: ${r.specRefs.join(', ') || '(none)'}`, `model: ${r.model}`, ...(r.repeat ? [`runs: ${repeatLine(r)}`] : [])];
  return [...head, ...failures.map((f, i) => `\n${failures.length > 1 ? `--- failure ${i + 1} of ${failures.length}\n` : ''}${failureText(f)}`)].join('\n');
}

/** `first` alone, or how many there were and the first. */
function firstOf(r: CheckResult): string {
  const failures = r.failures ?? [];
  const first = failures[0]?.message ?? 'failed';
  return failures.length > 1 ? `${failures.length} failures; first: ${first}` : first;
}

/** What a failing result that does not fail the run says, in a passing testcase's <system-out>. */
function belowGateText(r: CheckResult, why: string): string {
  return `${r.verdict} [${r.severity}], ${why}\n\n${r.verdict === 'error' ? (r.reason ?? '') : failuresText(r)}`;
}

/**
 * One testcase. It fails (a <failure> or <error>) exactly when the gate (results/gate.ts) fails the
 * run on it, so CI's test view and the job's exit code agree: a should or advisory failure, a known
 * failure (--baseline) or an allowed flaky check (--allow-flaky) is a passing testcase that says in
 * its <system-out> what failed and why it does not count; an allowed flaky check also carries each
 * failing run as a <flakyFailure> (Maven Surefire's rerun format, shown by Jenkins as a flaky pass).
 */
function testcase(r: CheckResult, record: RunRecord, classname: string): string {
  const open = `    <testcase name="${attr(r.checkId)}" classname="${attr(classname)}" time="${seconds(r.durationMs)}"`;
  const standing = standingOf(r, record.options);
  const outs = [...(r.repeat ? [`repeat: ${repeatLine(r)}`] : []), ...(standing.counts === 'known' || standing.counts === 'tolerated' ? [belowGateText(r, standing.why)] : [])];
  const out = outs.length > 0 ? `\n      <system-out>${text(outs.join('\n\n'))}</system-out>` : '';
  const close = (children: string) => `${open}>${children ? `\n${children}` : ''}${out}\n    </testcase>`;
  if (r.verdict === 'skip' || r.verdict === 'unsupported') {
    const reason = r.verdict === 'unsupported' ? `unsupported: ${r.reason ?? ''}` : `${skipKindOf(r)}: ${r.reason ?? 'skipped'}`;
    return close(`      <skipped message="${attr(reason)}"/>`);
  }
  if (standing.counts !== 'gates') {
    const flakyRuns = r.verdict === 'flaky' ? (r.failures ?? []).map((f) => `      <flakyFailure message="${attr(f.message)}" type="flaky"><stackTrace>${text(failureText(f))}</stackTrace></flakyFailure>`).join('\n') : '';
    return out || flakyRuns ? close(flakyRuns) : `${open}/>`;
  }
  if (r.verdict === 'error') {
    const reason = r.reason ?? 'the harness could not judge this check';
    const body = `${reason}\n\n${standing.why}.\nseverity: ${r.severity}\nspec: ${r.specRefs.join(', ')}`;
    return close(`      <error message="${attr(reason)}" type="harness-error">${text(body)}</error>`);
  }
  const message = r.verdict === 'flaky' ? `[${r.severity}] ${r.reason ?? 'flaky'}; ${firstOf(r)}` : `[${r.severity}] ${firstOf(r)}`;
  return close(`      <failure message="${attr(message)}" type="${attr(r.verdict === 'flaky' ? 'flaky' : r.severity)}">${text(failuresText(r))}</failure>`);
}

/** A name fit for a classname segment: JUnit readers split classnames at dots. */
const segment = (s: string) => s.replace(/[^A-Za-z0-9_-]+/g, '_');

/**
 * junit.xml: one <testsuite> per area of the cell (named `model at target · area`), one <testcase>
 * per check named by its id, classname `target.model.area`. A result that fails the run (the gate's
 * decision, testcase()): fail → <failure type=severity> with message, evidence and reproducer;
 * flaky → <failure type=flaky>; error → <error>. Below the gate: a passing testcase saying why in
 * <system-out>. skip and unsupported → <skipped message="kind: reason"/>; a repeated check's runs,
 * pass@k and pass^k in its <system-out>. An interrupted run, one that judged nothing, or one the
 * harness ended early adds a failing `run.outcome` testcase. Follows the Ant/Jenkins JUnit schema
 * that GitHub, GitLab and Jenkins read: properties first in each suite, counts on every suite.
 * Everything is escaped (escape.ts); characters XML cannot carry are shown as \uXXXX.
 */
export function renderJunit(record: RunRecord): string {
  const results = orderedResults(record.results);
  const decision = cellGate(record);
  const props: [string, string][] = [
    ['outcome', OUTCOME_WORD[decision.outcome]],
    ['reason', decision.reason],
    ...(record.score === undefined ? [] : [['score', String(record.score)] as [string, string]]),
    ...(record.coverage === undefined ? [] : [['coverage', `${record.coverage.percent}% (${record.coverage.covered} of ${record.coverage.total} spec entries)`] as [string, string]]),
    ...(record.traffic === undefined
      ? []
      : ([
          ['requests', `${record.traffic.requests} (${TRAFFIC_SCOPE})`],
          ['retries', String(record.traffic.retries)],
          ['concurrency', concurrencyNote(record.traffic.concurrency)],
          ...(record.traffic.answerTimes ? [['answer times', answerTimesNote(record.traffic.answerTimes)] as [string, string]] : []),
        ] as [string, string][])),
    ['baseUrl', record.target.baseUrl],
    ['target', record.target.kind],
    ['model', record.model],
    ['targetModel', record.targetModel],
    ['spec.revision', record.spec.revision],
    ['referenceTime', `${record.referenceTime.value} (${record.referenceTime.source})`],
    ['strict', String(record.options.strict)],
    ['seed', String(record.options.seed)],
    ...(record.options.repeat ? ([['repeat', String(record.options.repeat)]] as [string, string][]) : []),
    ...(record.options.allowFlaky ? ([['allowFlaky', 'true']] as [string, string][]) : []),
    ...(record.options.clients ? ([['clients', record.options.clients.join(',')]] as [string, string][]) : []),
    ...(record.options.clientsGate ? ([['clientsGate', 'true']] as [string, string][]) : []),
    ...(record.options.baseline ? ([['baseline', record.options.baseline.source]] as [string, string][]) : []),
    ['harness', `${record.harness.name} ${record.harness.version}`],
    ...(record.interrupted ? ([['interrupted', record.interruptedBy ?? 'true']] as [string, string][]) : []),
  ];
  const host = (() => {
    try {
      return new URL(record.target.baseUrl).host;
    } catch {
      return record.target.baseUrl;
    }
  })();
  // Model and target in every classname and suite name: the junit files of several cells, read
  // together by a CI, never hold two testcases of the same (classname, name).
  const cell = `${segment(targetKey(record.target))}.${segment(record.model)}`;
  const gating = new Set(decision.gating);
  const counts = (cases: readonly CheckResult[]) => ({
    failures: cases.filter((r) => gating.has(r) && r.verdict !== 'error').length,
    errors: cases.filter((r) => gating.has(r) && r.verdict === 'error').length,
    skipped: cases.filter((r) => r.verdict === 'skip' || r.verdict === 'unsupported').length,
  });
  const suiteHead = (name: string, id: number, tests: number, c: ReturnType<typeof counts>, time: number) =>
    `  <testsuite name="${attr(name)}" id="${id}" tests="${tests}" failures="${c.failures}" errors="${c.errors}" skipped="${c.skipped}" time="${seconds(time)}" timestamp="${timestamp(record.startedAt)}" hostname="${attr(host)}">`;
  const properties = ['    <properties>', ...props.map(([n, v]) => `      <property name="${attr(n)}" value="${attr(v)}"/>`), '    </properties>'];
  const areas = areasOf(record.results);
  const suites = areas.map((area, id) => {
    const cases = results.filter((r) => r.area === area);
    const time = cases.reduce((t, r) => t + r.durationMs, 0);
    return [suiteHead(`${cellName(record)} · ${area}`, id, cases.length, counts(cases), time), ...properties, ...cases.map((r) => testcase(r, record, `${cell}.${area}`)), '  </testsuite>'].join('\n');
  });
  // A run that ended without judging what it set out to (interrupted, nothing judged, the key
  // refused, a base URL the harness cannot build on) is one failing testcase of its own: its JUnit
  // is never all green, even in a cell whose checks all held.
  const runCase = decision.outcome === 'interrupted' || decision.outcome === 'nothing-judged' || record.endedEarly !== undefined || record.wrongBase !== undefined;
  if (runCase) {
    const type = record.endedEarly?.kind ?? (record.wrongBase ? 'wrong-base' : decision.outcome);
    suites.push(
      [
        suiteHead(`${cellName(record)} · run`, areas.length, 1, { failures: 1, errors: 0, skipped: 0 }, 0),
        ...properties,
        `    <testcase name="run.outcome" classname="${attr(`${cell}.run`)}" time="0">`,
        `      <failure message="${attr(`${OUTCOME_WORD[decision.outcome]}: ${decision.reason}`)}" type="${attr(type)}">${text(decision.reason)}</failure>`,
        '    </testcase>',
        '  </testsuite>',
      ].join('\n'),
    );
  }
  const total = counts(record.results);
  const extra = runCase ? 1 : 0;
  const time = (Date.parse(record.finishedAt) - Date.parse(record.startedAt)) || record.results.reduce((t, r) => t + r.durationMs, 0);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${attr(`svc-conformance: ${cellName(record)}`)}" tests="${record.results.length + extra}" failures="${total.failures + extra}" errors="${total.errors}" skipped="${total.skipped}" time="${seconds(time)}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}
