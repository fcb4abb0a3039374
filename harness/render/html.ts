import { pageHead } from './htmlPage.ts';
import type { Exchange } from '#harness/core/exchange.ts';
import type { CheckResult, Failure } from '#harness/core/outcome.ts';
import { causesOf, firstFailureOf, type RunRecord } from '#harness/results/index.ts';
import { escapeHtml as h } from './escape.ts';
import { CLIENT_REPRODUCER, COMPARISON, exchangeLine, failurePlace, replayLine, responseExcerpt } from './evidenceText.ts';
import { cellName, gatewayChanges, judgingNote, judgingOfRecord, judgingReasonNote, targetLabel, upstreamTrafficNote } from './view.ts';
import { loadChart, LOAD_CHART_CSS } from './loadChart.ts';
import { LOAD_COLUMNS, LOAD_LEGEND, loadIntro, recoveryNote } from './loadView.ts';
import { areasOf, attemptsLine, judgedLine, scoreLine, bodyText, costNotes, duration, failsRun, optionWords, orderedResults, outcomeHeadline, outcomeOf, plural, prettyJson, repeatLine, summaryByArea, timingNote, TRAFFIC_SCOPE, trafficNote, VERDICTS } from './view.ts';

const CSS = `
:root{color-scheme:light dark;--fg:#1f2328;--muted:#59636e;--bg:#fff;--panel:#f6f8fa;--line:#d1d9e0;
--fail:#cf222e;--flaky:#9a6700;--error:#bc4c00;--unsupported:#6639ba;--skip:#59636e;--pass:#1a7f37}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#9198a1;--bg:#0d1117;--panel:#151b23;--line:#3d444d;
--fail:#f85149;--flaky:#d29922;--error:#db6d28;--unsupported:#ab7df8;--skip:#9198a1;--pass:#3fb950}}
*{box-sizing:border-box}
body{margin:0 auto;max-width:78rem;padding:1.5rem;font:14px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg)}
h1{font-size:1.5rem;margin:0 0 .75rem}h2{font-size:1.2rem;margin:2rem 0 .75rem;border-bottom:1px solid var(--line);padding-bottom:.25rem}
h4{margin:.75rem 0 .25rem;font-size:.9rem}
code,pre{font:12.5px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre{background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:.6rem .75rem;overflow:auto;max-height:32rem;white-space:pre-wrap;overflow-wrap:anywhere;margin:.25rem 0}
a{color:inherit}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.15rem 1rem;margin:0 0 1rem}dl.facts dt{color:var(--muted)}dl.facts dd{margin:0}ol.reasons{margin:.1rem 0;padding-left:1.2rem}
.meter{vertical-align:middle;margin-left:.4rem}.meter .back{fill:#8884}.meter .fill{fill:var(--pass)}.meter.cov .fill{fill:#4a7bd0}
.badge{display:inline-block;min-width:5.5rem;text-align:center;border-radius:1rem;padding:0 .6rem;font-weight:600;color:#fff;font-size:.85rem}
.badge.fail{background:var(--fail)}.badge.flaky{background:var(--flaky)}.badge.error{background:var(--error)}.badge.unsupported{background:var(--unsupported)}.badge.skip{background:var(--skip)}.badge.pass{background:var(--pass)}.badge.interrupted,.badge.nothing-judged{background:var(--error)}
.sev{display:inline-block;border:1px solid var(--line);border-radius:4px;padding:0 .35rem;font-size:.8rem;color:var(--muted)}.sev.must{font-weight:700;color:var(--fg)}
.note{border-left:4px solid var(--error);background:var(--panel);padding:.4rem .75rem;margin:.5rem 0}
table{border-collapse:collapse}th,td{border:1px solid var(--line);padding:.25rem .6rem;text-align:left;vertical-align:top}
table.matrix td{text-align:right;min-width:4.5rem}table.matrix td.zero{color:var(--muted)}table.matrix tfoot{font-weight:700}
td.fail a{color:var(--fail);font-weight:700}td.flaky a{color:var(--flaky);font-weight:700}td.error a{color:var(--error);font-weight:700}
table.headers{font-size:12.5px;margin:.25rem 0}table.headers th{font-weight:400;color:var(--muted)}
nav#filters{display:flex;flex-wrap:wrap;gap:.5rem 1.5rem;align-items:center;margin:0 0 1rem}
nav#filters [role=group]{display:flex;flex-wrap:wrap;gap:.25rem}
nav button,button.copy{font:inherit;font-size:.85rem;border:1px solid var(--line);background:var(--panel);color:var(--fg);border-radius:6px;padding:.1rem .6rem;cursor:pointer}
nav button[aria-pressed=true]{background:var(--fg);color:var(--bg)}
button.copy{float:right;margin:.3rem}
ol.checks{list-style:none;padding:0;margin:0}
li.check{border:1px solid var(--line);border-left-width:4px;border-radius:6px;padding:.5rem .75rem;margin:.4rem 0}
li.check.fail{border-left-color:var(--fail)}li.check.flaky{border-left-color:var(--flaky)}li.check.error{border-left-color:var(--error)}li.check.unsupported{border-left-color:var(--unsupported)}li.check.skip{border-left-color:var(--skip)}li.check.pass{border-left-color:var(--pass)}
.head{display:flex;flex-wrap:wrap;gap:.5rem;align-items:baseline}.head .id{font-weight:600}.head .meta{margin-left:auto;color:var(--muted)}
.refs,.reason,.where{margin:.25rem 0;color:var(--muted)}.reason{color:var(--fg)}
details.failure{margin:.4rem 0 0;border-top:1px dashed var(--line);padding-top:.4rem}details.failure>summary{cursor:pointer;font-weight:600}
ol.events{padding-left:2rem;margin:.25rem 0}ol.events li{overflow-wrap:anywhere}ol.events .at{display:inline-block;min-width:4.5rem;color:var(--muted)}
footer{margin:2rem 0 0;color:var(--muted);font-size:.85rem}
[hidden]{display:none!important}
${LOAD_CHART_CSS}`;

// Progressive enhancement only: without it every check is listed and every <details> still opens.
const SCRIPT = `
(function () {
  var nav = document.getElementById('filters');
  var items = Array.prototype.slice.call(document.querySelectorAll('li.check'));
  var shown = document.getElementById('shown');
  var state = { area: '', verdict: '' };
  function apply() {
    var n = 0;
    items.forEach(function (li) {
      var ok = (!state.area || li.getAttribute('data-area') === state.area) && (!state.verdict || li.getAttribute('data-verdict') === state.verdict);
      li.hidden = !ok;
      if (ok) n++;
    });
    nav.querySelectorAll('button[data-key]').forEach(function (b) {
      b.setAttribute('aria-pressed', String(state[b.getAttribute('data-key')] === b.getAttribute('data-value')));
    });
    shown.textContent = n + ' of ' + items.length + ' checks shown';
  }
  nav.addEventListener('click', function (e) {
    var b = e.target.closest('button[data-key]');
    if (b) { state[b.getAttribute('data-key')] = b.getAttribute('data-value'); apply(); }
  });
  document.getElementById('expand').addEventListener('click', function (e) {
    var all = document.querySelectorAll('details.failure');
    var open = Array.prototype.some.call(all, function (d) { return !d.open; });
    all.forEach(function (d) { d.open = open; });
    e.target.textContent = open ? 'collapse all failures' : 'expand all failures';
  });
  document.querySelector('table.matrix').addEventListener('click', function (e) {
    var a = e.target.closest('a[data-area]');
    if (a) { state.area = a.getAttribute('data-area'); state.verdict = a.getAttribute('data-verdict') || ''; apply(); }
  });
  document.querySelectorAll('pre.curl').forEach(function (pre) {
    if (!navigator.clipboard) return;
    var b = document.createElement('button');
    b.type = 'button'; b.className = 'copy'; b.textContent = 'copy';
    b.addEventListener('click', function () {
      navigator.clipboard.writeText(pre.textContent).then(function () { b.textContent = 'copied'; setTimeout(function () { b.textContent = 'copy'; }, 1500); });
    });
    pre.parentNode.insertBefore(b, pre);
  });
  nav.hidden = false;
  apply();
})();
`;


function headersTable(headers: Record<string, string>): string {
  const rows = Object.entries(headers).map(([k, v]) => `<tr><th scope="row">${h(k)}</th><td><code>${h(v)}</code></td></tr>`);
  return rows.length > 0 ? `<table class="headers">${rows.join('')}</table>` : '';
}

function exchangeHtml(ex: Exchange): string {
  const out: string[] = [];
  const req = ex.request;
  out.push('<h4>Request</h4>', `<pre>${h(`${req.method} ${req.url}`)}</pre>`, headersTable(req.headers));
  if (req.rawBody !== undefined) out.push(`<pre>${h(req.rawBody)}</pre>`);
  else if (req.body !== undefined) out.push(`<pre class="json">${h(prettyJson(req.body))}</pre>`);
  const res = ex.response;
  if (res) {
    const facts = [`${res.status}`, duration(res.durationMs), plural(ex.attempts, 'attempt'), ...(res.truncated ? ['body truncated at the size limit'] : [])];
    out.push(`<h4>Response <span class="where">${h(facts.join(' · '))}</span></h4>`, headersTable(res.headers));
    const body = bodyText(res);
    if (body !== undefined) out.push(`<pre class="${res.body === undefined ? 'text' : 'json'}">${h(body)}</pre>`);
    if (res.events) {
      out.push(`<h4>Events (${res.events.length})</h4>`, '<ol class="events">');
      for (const e of res.events) {
        // as it arrived: the framing is the evidence
        out.push(`<li><span class="at">+${h(String(e.at))} ms</span>${e.event === undefined ? '' : ` event: <code>${h(e.event)}</code>`} <code>${h(e.data.startsWith(':') ? e.data : `data: ${e.data}`)}</code></li>`);
      }
      out.push('</ol>');
    }
    if (ex.error) out.push('<h4>Then</h4>', `<pre>${h(`${ex.error.code}: ${ex.error.message}`)}</pre>`);
  } else if (ex.error) {
    out.push('<h4>No response</h4>', `<pre>${h(`${ex.error.code}: ${ex.error.message}`)}</pre>`);
  }
  return out.join('\n');
}

function failureHtml(f: Failure): string {
  const out = [`<details class="failure"><summary>${h(f.message)}</summary>`];
  const place = failurePlace(f);
  if (place) out.push(`<p class="where">${h(place)}</p>`);
  if (f.evidence) out.push(`<p class="where">${h(exchangeLine(f.evidence))}</p>`, exchangeHtml(f.evidence));
  if (f.comparison) out.push(`<h4>${h(COMPARISON)}</h4>`, `<p class="where">${h(exchangeLine(f.comparison))}</p>`, exchangeHtml(f.comparison));
  if (f.reproducer) {
    const replay = replayLine(f.reproducer);
    out.push('<h4>Reproduce with</h4>', `<pre class="curl"><code>${h(f.reproducer.curl)}</code></pre>`);
    if (replay) out.push(`<p class="where">${h(replay)}</p>`);
    if (f.reproducer.client) out.push(`<h4>${h(CLIENT_REPRODUCER)}</h4>`, `<pre class="curl"><code>${h(f.reproducer.client)}</code></pre>`);
  }
  out.push('</details>');
  return out.join('\n');
}

/** A small bar of `percent` (0..100), drawn in SVG: attributes, not inline styles, which the page's CSP forbids. */
function meter(percent: number, what: 'score' | 'coverage'): string {
  return ` <svg class="meter${what === 'coverage' ? ' cov' : ''}" width="100" height="8" role="img" aria-label="${what} ${percent} of 100"><rect class="back" width="100" height="8" rx="4"/><rect class="fill" width="${percent}" height="8" rx="4"/></svg>`;
}

function checkHtml(r: CheckResult, gates: boolean, allowFlaky: boolean): string {
  const out = [
    `<li class="check ${r.verdict}" id="${h(`check-${r.checkId}-${r.model}`)}" data-area="${h(r.area)}" data-verdict="${r.verdict}">`,
    '<div class="head">',
    `<span class="badge ${r.verdict}">${r.verdict}</span>`,
    `<span class="sev ${r.severity}" title="severity">${r.severity}</span>`,
    `<code class="id">${h(r.checkId)}</code>`,
    `<span class="title">${h(r.title)}</span>`,
    `<span class="meta">${h(`${r.area} · ${duration(r.durationMs)}`)}</span>`,
    '</div>',
  ];
  if (r.basis !== undefined) out.push(`<div class="refs">basis: ${h(r.basis)}</div>`);
  if (r.specRefs.length > 0) out.push(`<div class="refs">spec: ${r.specRefs.map((s) => `<code>${h(s)}</code>`).join(', ')}</div>`);
  if (r.verdict === 'fail') out.push(`<div class="refs">${gates ? 'This failure fails the run.' : 'This failure does not fail the run (its severity).'}</div>`);
  if (r.verdict === 'flaky') out.push(`<div class="refs">It passed in some runs and failed in others. ${gates ? 'This fails the run, as a failure of its severity would.' : allowFlaky ? 'With --allow-flaky this does not fail the run.' : 'At its severity this does not fail the run.'}</div>`);
  const runs = repeatLine(r);
  if (runs) out.push(`<div class="refs">runs: ${h(runs)}</div>`);
  const seen = [judgedLine(r), attemptsLine(r)].filter((x) => x !== undefined);
  if (seen.length > 0) out.push(`<div class="refs">${h(seen.join(' · '))}</div>`);
  if (r.reason !== undefined) out.push(`<p class="reason">${h(r.reason)}</p>`);
  if (r.verdict === 'error') out.push(`<div class="refs">The check could not be judged (the endpoint refused, reset, stalled or answered unreadable bytes, or the harness broke). ${gates ? 'At its severity this fails the run.' : 'At its severity this does not fail the run.'}</div>`);
  for (const f of r.failures ?? []) out.push(failureHtml(f));
  out.push('</li>');
  return out.join('\n');
}

/** Distinct causes first, each with the checks it affected and what came back the first time. */
function causesHtml(record: RunRecord): string[] {
  const causes = record.causes ?? causesOf(record.results);
  if (causes.length === 0) return [];
  const failures = causes.reduce((n, c) => n + c.failures, 0);
  const items = causes.map((c) => {
    const evidence = firstFailureOf(c, record.results)?.evidence;
    const checks = c.affected.map((a) => `<code>${h(a.checkId)}</code> (${h(a.model)})`).join(', ');
    return `<li><span class="sev ${c.severity}">${c.severity}</span> ${h(c.message)} <span class="meta">${h(plural(c.failures, 'failure'))} in ${h(plural(c.affected.length, 'check'))}</span><div class="refs">${checks}</div>${evidence ? `<pre>${h(responseExcerpt(evidence).join('\n'))}</pre>` : ''}</li>`;
  });
  return ['<section id="causes">', `<h2>Causes: ${h(plural(failures, 'failure'))} from ${h(plural(causes.length, 'cause'))}</h2>`, `<ol class="causes">${items.join('')}</ol>`, '</section>'];
}

function matrixHtml(record: RunRecord): string {
  const link = (area: string, verdict: string, text: string) => `<a href="#checks" data-area="${h(area)}" data-verdict="${verdict}">${text}</a>`;
  const cell = (area: string, verdict: (typeof VERDICTS)[number], n: number) =>
    n === 0 ? '<td class="zero">0</td>' : `<td class="${verdict}">${link(area, verdict, String(n))}</td>`;
  const rows = summaryByArea(record.results).map(
    ([area, s]) => `<tr><th scope="row">${link(area, '', h(area))}</th>${VERDICTS.map((v) => cell(area, v, s[v])).join('')}<td>${link(area, '', String(s.total))}</td></tr>`,
  );
  const s = record.summary;
  return [
    '<table class="matrix">',
    `<thead><tr><th scope="col">area</th>${VERDICTS.map((v) => `<th scope="col">${v}</th>`).join('')}<th scope="col">total</th></tr></thead>`,
    `<tbody>${rows.join('\n')}</tbody>`,
    `<tfoot><tr><th scope="row">${link('', '', 'all')}</th>${VERDICTS.map((v) => cell('', v, s[v])).join('')}<td>${link('', '', String(s.total))}</td></tr></tfoot>`,
    '</table>',
  ].join('\n');
}

function filtersHtml(record: RunRecord): string {
  const button = (key: string, value: string, text: string) => `<button type="button" data-key="${key}" data-value="${h(value)}" aria-pressed="false">${h(text)}</button>`;
  const present = VERDICTS.filter((v) => record.results.some((r) => r.verdict === v));
  return [
    '<nav id="filters" hidden aria-label="Filter the checks">',
    `<div role="group" aria-label="Area">${[button('area', '', 'all areas'), ...areasOf(record.results).map((a) => button('area', a, a))].join('')}</div>`,
    `<div role="group" aria-label="Verdict">${[button('verdict', '', 'all verdicts'), ...present.map((v) => button('verdict', v, v))].join('')}</div>`,
    '<button type="button" id="expand">expand all failures</button>',
    '<span id="shown" aria-live="polite"></span>',
    '</nav>',
  ].join('\n');
}

/**
 * report.html: one self-contained file (inline CSS and script, no external asset, a CSP that
 * forbids everything else). A matrix of area x verdict at the top, filter buttons by area and
 * verdict, then one row per check, failures first; each failure expands (<details>, no script
 * needed) to its evidence: request and response with pretty JSON, SSE events, the reproducer.
 * Every text is HTML-escaped; the page reads in full without JavaScript.
 */
export function renderHtml(record: RunRecord): string {
  const outcome = outcomeOf(record);
  const s = record.summary;
  const verdictWord = outcomeHeadline(outcome.outcome, false);
  const opts = record.options;
  const judging = judgingOfRecord(record);
  const facts: [string, string][] = [
    ['Score', `${h(scoreLine(record))}${record.score === undefined ? '' : meter(record.score, 'score')}${record.coverage === undefined ? '' : meter(record.coverage.percent, 'coverage')}`],
    // What the outcome rests on, and the leading reasons the rest was not judged (each check is listed below).
    ['Judged', `${h(judgingNote(judging))}${judging.reasons.length === 0 ? '' : `<ol class="reasons">${judging.reasons.map((r) => `<li>${h(judgingReasonNote(r))}${r.handedTo === undefined ? '' : ` <span class="where">(handed to <code>${h(r.handedTo)}</code>)</span>`}</li>`).join('')}</ol>`}`],
    ['Target', `<code>${h(record.target.baseUrl)}</code> (${h(record.target.kind)}; messages <code>${h(record.target.messagesBaseUrl)}</code>)`],
    ['Model', record.targetModel === record.model ? `<code>${h(record.model)}</code>` : `<code>${h(record.model)}</code> (asked as <code>${h(record.targetModel)}</code>)`],
    ['Spec revision', `<code>${h(record.spec.revision)}</code> (updated ${h(record.spec.updated)})`],
    ['Reference time', `${h(record.referenceTime.value)} (${h(record.referenceTime.source)})`],
    [
      'Run',
      h(
        [
          `${record.startedAt} → ${record.finishedAt}`,
          ...optionWords(opts),
        ].join(' · '),
      ),
    ],
  ];
  const counts = `<strong>${plural(s.mustFailures, 'must failure')}</strong> · ${plural(s.shouldFailures, 'should failure')} · ${plural(s.advisoryFailures, 'advisory failure')} · ${plural(s.error, 'error')}${s.flaky > 0 ? ` · ${s.flaky} flaky` : ''} · ${s.pass} passed · ${s.skip} skipped · ${s.unsupported} unsupported (${plural(s.total, 'check')})`;
  const notes = [
    ...(record.interrupted ? ['<p class="note">The run was interrupted before every check ran: this report is partial.</p>'] : []),
    ...(s.error > 0 ? [`<p class="note">${plural(s.error, 'check')} could not be judged. An error fails the run as a failure of its severity would.</p>`] : []),
    ...(s.flaky > 0 ? [`<p class="note">${plural(s.flaky, 'check')} passed in some runs and failed in others (flaky). ${opts.allowFlaky ? 'With --allow-flaky a flaky check does not fail the run.' : 'A flaky check fails the run as a failure of its severity would.'}</p>`] : []),
  ];
  const u = record.usage;
  return [
    // Nothing is fetched and only this page's own style and script run (htmlPage.ts).
    ...pageHead(`${verdictWord} · ${cellName(record)} · svc-conformance`, CSS, SCRIPT),
    '<body>',
    '<header>',
    `<h1><span class="badge ${outcome.outcome}">${verdictWord}</span> ${h(record.model)} at <code>${h(targetLabel(record.target))}</code></h1>`,
    `<p class="reason"><strong>${h(outcome.reason)}.</strong></p>`,
    `<dl class="facts">${facts.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join('')}</dl>`,
    `<p>${counts}</p>`,
    ...notes,
    '</header>',
    '<main>',
    ...causesHtml(record),
    ...gatewayHtml(record),
    '<section id="matrix">',
    '<h2>Verdicts by area</h2>',
    matrixHtml(record),
    '</section>',
    ...loadHtml(record),
    '<section id="checks">',
    `<h2>Checks (${record.results.length})</h2>`,
    filtersHtml(record),
    '<ol class="checks">',
    ...orderedResults(record.results).map((r) => checkHtml(r, failsRun(r, opts), opts.allowFlaky === true)),
    '</ol>',
    '</section>',
    '<section id="usage">',
    '<h2>Tokens and cost</h2>',
    '<table><thead><tr><th scope="col">prompt tokens</th><th scope="col">completion tokens</th><th scope="col">cache-hit tokens</th><th scope="col">cost (USD)</th></tr></thead>',
    `<tbody><tr><td>${u.promptTokens}</td><td>${u.completionTokens}</td><td>${u.cacheHitTokens}</td><td>${h(u.costUsd)}</td></tr></tbody></table>`,
    ...costNotes(record).map((note) => `<p class="note">${h(note)}</p>`),
    ...(record.timings ? [`<p class="note">${h(`Time (the whole run): ${timingNote(record.timings)}`)}</p>`] : []),
    ...(record.traffic ? [`<p class="note">${h(`Requests (${TRAFFIC_SCOPE}): ${trafficNote(record.traffic)}`)}</p>`] : []),
    '</section>',
    '</main>',
    `<footer>${h(`${record.harness.name} ${record.harness.version}`)}; rendered from the run record (report.json) alone.</footer>`,
    `<script>${SCRIPT}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** The load phase (`--load N`): the chart, then the steps' table (markdown.ts has its twin); information beside the verdicts. */
function loadHtml(record: RunRecord): string[] {
  const load = record.load;
  if (load === undefined) return [];
  const recovery = recoveryNote(load);
  return [
    '<section id="load">',
    '<h2>Under load</h2>',
    `<p>${h(loadIntro(load, record.model))}</p>`,
    loadChart([{ label: record.model, load }]),
    `<table class="load"><thead><tr>${LOAD_COLUMNS.map((c) => `<th scope="col">${h(c.head)}</th>`).join('')}</tr></thead>`,
    `<tbody>${load.steps.map((step) => `<tr>${LOAD_COLUMNS.map((c) => `<td>${h(c.cell(step))}</td>`).join('')}</tr>`).join('')}</tbody></table>`,
    ...(recovery ? [`<p>${h(recovery)}</p>`] : []),
    ...(load.endedEarly === undefined ? [] : [`<p class="note">${h(`The phase ended before its last step: ${load.endedEarly}.`)}</p>`]),
    `<p class="refs">${h(LOAD_LEGEND)}</p>`,
    '</section>',
  ];
}

/** A gateway run's section (markdown.ts has its twin): what the gateway changed, both sides, and its upstream traffic. */
function gatewayHtml(record: RunRecord): string[] {
  const changes = gatewayChanges(record.results);
  const traffic = record.traffic?.upstream;
  if (changes.length === 0 && traffic === undefined) return [];
  const rows = changes.map((c) => `<tr><td>${h(c.change)}</td><td><code>${h(c.path)}</code></td><td><code>${h(c.upstream)}</code></td><td><code>${h(c.client)}</code></td><td>${c.checks.map((id) => `<code>${h(id)}</code>`).join(', ')}${c.count > 1 ? ` (${c.count}x)` : ''}</td></tr>`);
  return [
    '<section id="gateway">',
    '<h2>What the gateway changed</h2>',
    ...(traffic ? [`<p class="note">${h(`Upstream traffic (${TRAFFIC_SCOPE}): ${upstreamTrafficNote(traffic)}.`)}</p>`] : []),
    changes.length === 0 ? '<p>Nothing of meaning: every value judged reached the other side as it was sent.</p>' : `<table><thead><tr><th scope="col">change</th><th scope="col">where</th><th scope="col">upstream</th><th scope="col">client</th><th scope="col">checks</th></tr></thead><tbody>${rows.join('')}</tbody></table>`,
    '</section>',
  ];
}
