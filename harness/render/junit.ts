import type { CheckResult } from '#harness/core/outcome.ts';
import type { RunRecord } from '#harness/results/index.ts';
import { escapeXmlAttr as attr, escapeXmlText as text } from './escape.ts';
import { failureText } from './evidenceText.ts';
import { areasOf, cellName, orderedResults, summaryByArea } from './view.ts';

/** Seconds with millisecond precision, as JUnit's `time` attribute wants. */
function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

/** JUnit's timestamp is an ISO 8601 date-time without a zone (UTC here). */
function timestamp(iso: string): string {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? iso : new Date(t).toISOString().slice(0, 19);
}

function testcase(r: CheckResult): string {
  const open = `    <testcase name="${attr(r.checkId)}" classname="${attr(r.area)}" time="${seconds(r.durationMs)}"`;
  switch (r.verdict) {
    case 'pass':
      return `${open}/>`;
    case 'fail': {
      const failures = r.failures ?? [];
      const first = failures[0]?.message ?? 'failed';
      const message = `[${r.severity}] ${failures.length > 1 ? `${failures.length} failures; first: ${first}` : first}`;
      const head = [`${r.title}`, `severity: ${r.severity}`, ...(r.basis ? [`basis: ${r.basis}`] : []), `spec: ${r.specRefs.join(', ') || '(none)'}`, `model: ${r.model}`];
      const body = [...head, ...failures.map((f, i) => `\n${failures.length > 1 ? `--- failure ${i + 1} of ${failures.length}\n` : ''}${failureText(f)}`)].join('\n');
      return `${open}>\n      <failure message="${attr(message)}" type="${attr(r.severity)}">${text(body)}</failure>\n    </testcase>`;
    }
    case 'skip':
    case 'unsupported': {
      const reason = r.verdict === 'unsupported' ? `unsupported: ${r.reason ?? ''}` : (r.reason ?? 'skipped');
      return `${open}>\n      <skipped message="${attr(reason)}"/>\n    </testcase>`;
    }
    case 'error': {
      const reason = r.reason ?? 'the harness could not judge this check';
      const body = `${reason}\n\nThe check could not be judged; an error fails the run as a failure of its severity would.\nseverity: ${r.severity}\nspec: ${r.specRefs.join(', ')}`;
      return `${open}>\n      <error message="${attr(reason)}" type="harness-error">${text(body)}</error>\n    </testcase>`;
    }
  }
}

/**
 * junit.xml: one <testsuite> per area, one <testcase> per check named by its id (classname the
 * area). fail → <failure type=severity> with message, evidence and reproducer; skip and
 * unsupported → <skipped message=reason/>; error → <error>. Follows the Ant/Jenkins JUnit schema
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
  const suites = areasOf(record.results).map((area, id) => {
    const s = byArea.get(area)!;
    const cases = results.filter((r) => r.area === area);
    const time = cases.reduce((t, r) => t + r.durationMs, 0);
    return [
      `  <testsuite name="${attr(area)}" id="${id}" tests="${s.total}" failures="${s.fail}" errors="${s.error}" skipped="${s.skip + s.unsupported}" time="${seconds(time)}" timestamp="${timestamp(record.startedAt)}" hostname="${attr(host)}">`,
      '    <properties>',
      ...props.map(([n, v]) => `      <property name="${attr(n)}" value="${attr(v)}"/>`),
      '    </properties>',
      ...cases.map(testcase),
      '  </testsuite>',
    ].join('\n');
  });
  const total = record.summary;
  const time = (Date.parse(record.finishedAt) - Date.parse(record.startedAt)) || record.results.reduce((t, r) => t + r.durationMs, 0);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${attr(`svc-conformance: ${cellName(record)}`)}" tests="${total.total}" failures="${total.fail}" errors="${total.error}" skipped="${total.skip + total.unsupported}" time="${seconds(time)}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}
