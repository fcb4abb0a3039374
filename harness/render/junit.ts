import type { CheckResult } from '#harness/core/outcome.ts';
import type { RunRecord, Summary } from '#harness/results/index.ts';
import { escapeXmlAttr as attr, escapeXmlText as text } from './escape.ts';
import { failureText } from './evidenceText.ts';
import { areasOf, cellName, orderedResults, repeatLine, summaryByArea } from './view.ts';

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

/**
 * A flaky check. A JUnit consumer reads a <failure> as a red test, so a flaky check that counts as
 * failing (the run did not say --allow-flaky) is one, typed `flaky`: the CI's test view agrees with
 * the exit code. With --allow-flaky it passes, as the exit code does, and each failing run is a
 * <flakyFailure> (Maven Surefire's rerun format, which the Jenkins JUnit plugin shows as a flaky
 * pass; GitHub and GitLab readers skip the element and show a pass).
 */
function flakyBody(r: CheckResult, allowFlaky: boolean): string {
  const message = `[${r.severity}] ${r.reason ?? 'flaky'}; ${firstOf(r)}`;
  if (!allowFlaky) return `      <failure message="${attr(message)}" type="flaky">${text(failuresText(r))}</failure>`;
  return (r.failures ?? []).map((f) => `      <flakyFailure message="${attr(f.message)}" type="flaky"><stackTrace>${text(failureText(f))}</stackTrace></flakyFailure>`).join('\n');
}

function testcase(r: CheckResult, allowFlaky: boolean): string {
  const open = `    <testcase name="${attr(r.checkId)}" classname="${attr(r.area)}" time="${seconds(r.durationMs)}"`;
  // A repeated check says how its runs went in its system-out, whatever its verdict.
  const out = r.repeat ? `\n      <system-out>${text(`repeat: ${repeatLine(r)}`)}</system-out>` : '';
  const close = (children: string) => `${open}>\n${children}${out}\n    </testcase>`;
  switch (r.verdict) {
    case 'pass':
      return out ? `${open}>${out}\n    </testcase>` : `${open}/>`;
    case 'fail':
      return close(`      <failure message="${attr(`[${r.severity}] ${firstOf(r)}`)}" type="${attr(r.severity)}">${text(failuresText(r))}</failure>`);
    case 'flaky':
      return close(flakyBody(r, allowFlaky));
    case 'skip':
    case 'unsupported': {
      const reason = r.verdict === 'unsupported' ? `unsupported: ${r.reason ?? ''}` : (r.reason ?? 'skipped');
      return close(`      <skipped message="${attr(reason)}"/>`);
    }
    case 'error': {
      const reason = r.reason ?? 'the harness could not judge this check';
      const body = `${reason}\n\nThe check could not be judged; an error fails the run as a failure of its severity would.\nseverity: ${r.severity}\nspec: ${r.specRefs.join(', ')}`;
      return close(`      <error message="${attr(reason)}" type="harness-error">${text(body)}</error>`);
    }
  }
}

/**
 * junit.xml: one <testsuite> per area, one <testcase> per check named by its id (classname the
 * area). fail → <failure type=severity> with message, evidence and reproducer; flaky → <failure
 * type=flaky>, or with --allow-flaky a pass with <flakyFailure> per failing run (flakyBody); skip and
 * unsupported → <skipped message=reason/>; error → <error>; a repeated check's runs, pass@k and
 * pass^k in its <system-out>. Follows the Ant/Jenkins JUnit schema
 * that GitHub, GitLab and Jenkins read: properties first in each suite, counts on every suite.
 * Everything is escaped (escape.ts); characters XML cannot carry are shown as \uXXXX.
 */
export function renderJunit(record: RunRecord): string {
  const results = orderedResults(record.results);
  const props: [string, string][] = [
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
    ['harness', `${record.harness.name} ${record.harness.version}`],
    ...(record.interrupted ? ([['interrupted', 'true']] as [string, string][]) : []),
  ];
  const host = (() => {
    try {
      return new URL(record.target.baseUrl).host;
    } catch {
      return record.target.baseUrl;
    }
  })();
  const byArea = new Map(summaryByArea(record.results));
  const allowFlaky = record.options.allowFlaky === true;
  // A flaky check is a <failure> unless the run allowed flaky checks (flakyBody).
  const failing = (s: Summary) => s.fail + (allowFlaky ? 0 : s.flaky);
  const suites = areasOf(record.results).map((area, id) => {
    const s = byArea.get(area)!;
    const cases = results.filter((r) => r.area === area);
    const time = cases.reduce((t, r) => t + r.durationMs, 0);
    return [
      `  <testsuite name="${attr(area)}" id="${id}" tests="${s.total}" failures="${failing(s)}" errors="${s.error}" skipped="${s.skip + s.unsupported}" time="${seconds(time)}" timestamp="${timestamp(record.startedAt)}" hostname="${attr(host)}">`,
      '    <properties>',
      ...props.map(([n, v]) => `      <property name="${attr(n)}" value="${attr(v)}"/>`),
      '    </properties>',
      ...cases.map((r) => testcase(r, allowFlaky)),
      '  </testsuite>',
    ].join('\n');
  });
  const total = record.summary;
  const time = (Date.parse(record.finishedAt) - Date.parse(record.startedAt)) || record.results.reduce((t, r) => t + r.durationMs, 0);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${attr(`svc-conformance: ${cellName(record)}`)}" tests="${total.total}" failures="${failing(total)}" errors="${total.error}" skipped="${total.skip + total.unsupported}" time="${seconds(time)}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}
