import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { UsageError } from '#harness/core/errors/index.ts';
import type { CheckResult, TokenUse } from '#harness/core/outcome.ts';
import { buildRegistry, defaultModels } from '#harness/checks/index.ts';
import { isFaultId, type FaultId } from '#harness/emulator/index.ts';
import { renderHtml, renderJunit, renderMarkdown, renderMarkdownSummary } from '#harness/render/index.ts';
import { exitCodeOf, readRecords, serializeRunRecord, serializeRunSummary, summaryOf, type CostEstimate, type RunRecord, type RunTimings } from '#harness/results/index.ts';
import { loadSpec } from '#harness/spec/load.ts';
import type { Spec } from '#harness/spec/model.ts';
import { formatUsd, parseUsd } from '#harness/spec/money.ts';
import { costOf } from '#harness/spec/pricing.ts';
import { estimateCost } from '#harness/runner/estimate.ts';
import { shardOf, type Planned } from '#harness/runner/plan.ts';
import { buildRecords } from '#harness/runner/buildRecords.ts';
import { resolveReferenceTime } from '#harness/runner/referenceTime.ts';
import type { RunConfig } from '#harness/runner/runConfig.ts';
import { runSuites } from '#harness/runner/runVitest.ts';
import { readTargetsConfig } from '#harness/targets/configFile.ts';
import { relativePath, writeManifest } from '#harness/replay/fixtureFormat.ts';
import { emulatorTarget, fixturesTarget, liveTarget, type Target } from '#harness/targets/target.ts';
import { EXIT, parseFlags, type Command, type CommandIO } from '../command.ts';
import { interruptions } from '../interruptions.ts';
import { budgetOf, instant, integer, parseModelMap, parseShard, parseWithout } from '../runFlags.ts';
import { featuresOf } from '#harness/runner/servedGate.ts';
import { headersOf, parseHeader, parseHeaderEnv, type ExtraHeader } from '#harness/core/extraHeaders.ts';
import { VERSION } from '../version.ts';
import { basisText } from '#harness/spec/basis.ts';

/** The spec's feature names, for --help; a test keeps this list and the spec in step. */
export const FEATURE_LIST = 'chat, models, balance, fim, prefix_completion, messages';

export const run: Command = {
  name: 'run',
  summary: 'run the conformance checks against the embedded emulator or a base URL, and write reports',
  help: `Usage: svc-conformance run [--base-url URL]... [--config FILE] [--api-key-env VAR] [--messages-base-url URL]
                          [--empty-balance-key-env VAR] [--model ID]... [--model-map SPEC_ID=THEIR_ID,...] [--only PATTERN]
                          [--strict] [--now ISO] [--concurrency N] [--timeout-ms N] [--runs N] [--seed N]
                          [--shard I/N] [--report-dir DIR] [--json FILE] [--baseline FILE] [--fault NAME]...
                          [--header 'NAME: VALUE']... [--header-env NAME=VAR]... [--without FEATURE,...]
                          [--spec DIR] [--quiet]

Sends requests, judges every answer against spec/, and writes, for each base URL
and model, report.json, report.md, junit.xml and report.html under
DIR/<host>/<model>/, plus DIR/summary.md and DIR/summary.json across them.

Without --base-url the embedded emulator is started in-process on a loopback
port: the main job (npm start), needing no key and no network.

Options:
  --base-url URL         a live endpoint (repeatable)
  --config FILE          targets from a file (svc-conformance.yaml): base_url,
                         api_key_env, messages_base_url, empty_balance_key_env,
                         model_map, headers, header_env, without per target
  --api-key-env VAR      environment variable holding the key (default SVC_API_KEY)
  --empty-balance-key-env VAR
                         a second key whose balance is empty (checks the 402 rule)
  --messages-base-url U  the messages-format base (default {base_url}/anthropic)
  --model ID             a model of the spec to cover (repeatable; default every
                         current model, plus the legacy aliases for lifecycle)
  --model-map A=B,...    send the spec's model A as the provider's id B
  --header 'NAME: VALUE' send this header with every request (repeatable), for
                         gateways that route on their own headers
  --header-env NAME=VAR  the same, its value read from the environment variable
                         VAR and kept secret: redacted wherever it could be
                         written; reproducers read it back as $VAR
  --only PATTERN         checks whose id contains PATTERN (or matches a * glob)
  --without F,...        features the endpoint does not offer, from the spec:
                         ${FEATURE_LIST}
                         (a unique start is enough: prefix). Their checks are
                         skipped, out of scope; the exit code depends on the rest
  --strict               also fail on should-checks, and report unlisted fields
  --now ISO              reference time for lifecycle checks (and the embedded
                         emulator's clock); default: the server's Date header
  --concurrency N        requests in flight at most (default 4)
  --timeout-ms N         how long to wait for response headers, and between two
                         pieces of a body, before the check ends in error
                         (default 60000; connecting: at most 10000)
  --runs N, --seed N     property-test runs and seed (default 10, 1)
  --shard I/N            run share I of N of the checks (merge with \`merge\`)
  --report-dir DIR       where reports go (default reports/)
  --json FILE            also write the whole machine report (every cell) to FILE
  --baseline FILE        exit 1 only on regressions: checks that passed in FILE
                         (a report.json or a --json bundle) and fail now
  --fault NAME           embedded emulator only: break this rule (see
                         \`svc-conformance emulate --list-faults\`)
  --fixtures DIR         replay a recording (\`record --out DIR\`) instead of a
                         live target: loopback only, clock from the recording
  --fast                 with --fixtures: stream events without their spacing
  --spec DIR             spec directory (default: the spec/ shipped with the harness)
  --quiet                no progress lines
  -h, --help             show this help

Exit codes: 0 every applicable must-check passed (and should-checks, with
--strict); 1 a check failed, or could not be judged (error: refused, reset,
timed out, unreadable answer); 2 a usage or configuration error; 130 SIGINT,
143 SIGTERM (the partial report is written, marked interrupted).`,
  run: (argv, io) => runOrRecord('run', argv, io),
};

/** `run`, and `record` (a run with --out DIR: every exchange and a manifest written there). */
export async function runOrRecord(name: 'run' | 'record', argv: string[], io: CommandIO): Promise<number> {
  const { values } = parseFlags(name, argv, {
    'base-url': { type: 'string', multiple: true },
    'api-key-env': { type: 'string' },
    'empty-balance-key-env': { type: 'string' },
    'messages-base-url': { type: 'string' },
    model: { type: 'string', multiple: true },
    'model-map': { type: 'string' },
    header: { type: 'string', multiple: true },
    without: { type: 'string' },
    'header-env': { type: 'string', multiple: true },
    only: { type: 'string' },
    strict: { type: 'boolean' },
    now: { type: 'string' },
    concurrency: { type: 'string' },
    'timeout-ms': { type: 'string' },
    runs: { type: 'string' },
    seed: { type: 'string' },
    shard: { type: 'string' },
    'report-dir': { type: 'string' },
    json: { type: 'string' },
    fault: { type: 'string', multiple: true },
    fixtures: { type: 'string' },
    fast: { type: 'boolean' },
    ...(name === 'record' ? { out: { type: 'string' } } : {}),
    config: { type: 'string' },
    baseline: { type: 'string' },
    spec: { type: 'string' },
    quiet: { type: 'boolean' },
    'budget-usd': { type: 'string' },
  });
  const out = (values as { out?: string }).out;
  if (name === 'record' && out === undefined) throw new UsageError('record: --out DIR is required (e.g. fixtures/emulator).');
  if (name === 'record' && values.fixtures !== undefined) throw new UsageError('record: --fixtures replays a recording; record a live endpoint or the embedded emulator.');
  if (values.fixtures !== undefined && (values['base-url'] || values.config !== undefined || values.fault)) throw new UsageError('run: --fixtures replaces --base-url, --config and --fault; give one target.');
  if (values.fast && values.fixtures === undefined) throw new UsageError('run: --fast applies to --fixtures only.');
  if (name === 'record' && ((values['base-url']?.length ?? 0) > 1 || values.config !== undefined)) throw new UsageError('record: one target per recording; give at most one --base-url and no --config.');
  // A baseline that cannot be read stops the run before anything is spent.
  const baseline = values.baseline !== undefined ? await readRecords(resolve(values.baseline)) : undefined;
  const { spec } = loadSpec(values.spec);
  const registry = buildRegistry(spec);
  const models = values.model ?? defaultModels(spec);
  for (const m of models) if (!spec.models[m]) throw new UsageError(`run: --model ${m} is not a model of the spec (${Object.keys(spec.models).join(', ')}).`);
  const now = values.now === undefined ? undefined : instant(name, values.now);
  const faults = (values.fault ?? []).map((f): FaultId => {
    if (!isFaultId(f)) throw new UsageError(`run: --fault ${f} is not in the catalogue. Run \`svc-conformance emulate --list-faults\`.`);
    return f;
  });
  if (faults.length > 0 && values['base-url']) throw new UsageError('run: --fault applies to the embedded emulator only; drop --base-url, or start `svc-conformance emulate --fault ...` and point --base-url at it.');
  const options = {
    apiKeyEnv: values['api-key-env'] ?? 'SVC_API_KEY',
    modelMap: parseModelMap(name, values['model-map']),
    concurrency: integer(name, 'concurrency', values.concurrency, 1, 256) ?? 4,
    timeoutMs: integer(name, 'timeout-ms', values['timeout-ms'], 100, 3_600_000),
    runs: integer(name, 'runs', values.runs, 1, 100_000) ?? 10,
    seed: integer(name, 'seed', values.seed, 0, 2 ** 31 - 1) ?? 1,
    shard: parseShard(name, values.shard),
    without: parseWithout(name, values.without, featuresOf(spec)),
    headers: [...(values.header ?? []).map((h) => parseHeader(`${name}: --header`, h)), ...(values['header-env'] ?? []).map((h) => parseHeaderEnv(`${name}: --header-env`, h))],
    reportDir: resolve(values['report-dir'] ?? 'reports'),
  };

  const budgetUsd = values['budget-usd'] === undefined ? undefined : budgetOf(name, values['budget-usd']);
  if (values.config !== undefined && values['base-url']) throw new UsageError('run: give targets either with --base-url or in --config, not both.');
  const fromFile = values.config !== undefined ? readTargetsConfig(resolve(values.config)) : undefined;
  const entries: { make: () => Promise<Target>; modelMap: Record<string, string>; headers?: ExtraHeader[]; without?: string[] }[] = fromFile
    ? fromFile.map((t) => ({ make: async () => liveTarget(t.baseUrl, t), modelMap: { ...t.modelMap, ...options.modelMap }, headers: [...t.headers, ...options.headers], without: [...new Set([...parseWithout(`${name}: ${values.config}`, t.without.join(','), featuresOf(spec)), ...options.without])] }))
    : values['base-url']
      ? values['base-url'].map((url) => ({
          make: async () => liveTarget(url, { apiKeyEnv: options.apiKeyEnv, ...(values['empty-balance-key-env'] ? { emptyBalanceKeyEnv: values['empty-balance-key-env'] } : {}), ...(values['messages-base-url'] ? { messagesBaseUrl: values['messages-base-url'] } : {}) }),
          modelMap: options.modelMap,
        }))
      : values.fixtures !== undefined
        ? [{ make: () => fixturesTarget(resolve(values.fixtures!), { fast: values.fast === true }), modelMap: options.modelMap }]
        : [{ make: () => emulatorTarget(spec, { ...(now ? { now } : {}), faults }), modelMap: options.modelMap }];
  if (faults.length > 0 && fromFile) throw new UsageError('run: --fault applies to the embedded emulator only.');
  // Validate every live target (URL, key variable) before spending anything on the first.
  const resolved: { target: Target; modelMap: Record<string, string>; headers: ExtraHeader[]; without: string[] }[] = [];
  for (const entry of entries) resolved.push({ target: await entry.make(), modelMap: entry.modelMap, headers: entry.headers ?? options.headers, without: entry.without ?? options.without });

  const stop = interruptions(io);
  try {
    return await runTargets();
  } finally {
    stop.dispose();
    // Targets the loop never reached (a refused estimate, an error) are closed too; closing twice is harmless.
    await Promise.all(resolved.map(({ target }) => target.close().catch(() => undefined)));
  }

  async function runTargets(): Promise<number> {
    const records: RunRecord[] = [];
    const clock = { checksMs: 0, requestsMs: 0, startupMs: undefined as number | undefined };
    let estimate: CostEstimate | undefined;
    let spentPico = 0n;
    let budgetReached = false;
    for (const { target, modelMap, headers, without } of resolved) {
      try {
        const startedAt = new Date();
        const referenceTime: RunConfig['referenceTime'] =
          target.clock !== undefined && now === undefined ? { value: target.clock, source: 'fixture' } : await resolveReferenceTime(now?.toISOString(), `${target.baseUrl}/models`, target.apiKey, headersOf(headers));
        let recordDir: string | undefined;
        if (out !== undefined && !stop.signal.aborted) {
          recordDir = resolve(out);
          const messagesBasePath = relativePath(target.messagesBaseUrl, target.baseUrl);
          if (messagesBasePath === undefined) throw new UsageError(`record: the messages base ${target.messagesBaseUrl} is not under --base-url ${target.baseUrl}; a recording keeps paths relative to one base.`);
          // A re-recording replaces the old one whole: no stale exchange survives.
          rmSync(join(recordDir, 'exchanges'), { recursive: true, force: true });
          writeManifest(recordDir, {
            schemaVersion: 1,
            recordedAt: startedAt.toISOString(),
            clock: referenceTime.value,
            spec: { revision: spec.revision },
            harness: { version: VERSION },
            baseUrl: target.baseUrl,
            messagesBasePath,
            emptyBalanceKey: target.emptyBalanceKey !== undefined,
          });
        }
        const remaining = budgetUsd === undefined ? undefined : budgetUsd - spentPico;
        const config: RunConfig = {
          ...(values.spec ? { specDir: resolve(values.spec) } : {}),
          target: { kind: target.kind, baseUrl: target.baseUrl, messagesBaseUrl: target.messagesBaseUrl },
          apiKey: target.apiKey,
          ...(target.emptyBalanceKey ? { emptyBalanceKey: target.emptyBalanceKey } : {}),
          apiKeyEnv: target.apiKeyEnv,
          ...(headers.length > 0 ? { extraHeaders: headers } : {}),
          ...(without.length > 0 ? { without } : {}),
          models,
          modelMap,
          concurrency: options.concurrency,
          ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
          strict: values.strict === true,
          ...(values.only ? { only: values.only } : {}),
          ...(options.shard ? { shard: options.shard } : {}),
          runs: options.runs,
          seed: options.seed,
          referenceTime,
          lifecycleToleranceSeconds: 120,
          ...(recordDir !== undefined ? { recordDir } : {}),
          ...(remaining !== undefined ? { budget: { limitUsd: formatUsd(remaining > 0n ? remaining : 0n, 12).replace(/\.?0+$/, '') || '0', pricedAt: startedAt.toISOString() } } : {}),
        };
        // As the suites plan it: each area sharded on its own (describeChecks).
        const plan = registry.areas().flatMap((area) => shardOf(registry.plan(spec, models, area, values.only), options.shard));
        // Before a live run (or any run with a budget): what it will cost, from a free dry run of the same plan.
        if (estimate === undefined && (target.kind === 'live' || budgetUsd !== undefined) && !stop.signal.aborted) {
          if (!values.quiet) io.stderr(`svc-conformance: estimating the cost: the same ${plan.length} check runs against the embedded emulator...`);
          estimate = await estimateCost(spec, config, startedAt, stop.signal);
          if (!stop.signal.aborted) {
            io.stderr(`svc-conformance: estimated cost ${estimate.expected.costUsd} USD (${estimate.requests} requests, ${estimate.expected.promptTokens + estimate.expected.completionTokens} tokens at the spec's prices); at most ${estimate.upperBound.costUsd} USD if every answer used its whole max_tokens`);
            if (budgetUsd !== undefined && parseUsd(estimate.expected.costUsd) > budgetUsd) {
              throw new UsageError(`${name}: the estimated cost ${estimate.expected.costUsd} USD is above --budget-usd ${values['budget-usd']}. Raise --budget-usd, or run less (--model, --only, --runs, --shard).`);
            }
          }
        }
        if (!values.quiet) io.stderr(`svc-conformance: ${target.kind} ${target.baseUrl}: ${plan.length} check runs on ${models.join(', ')} (reference time ${referenceTime.value}, ${referenceTime.source})`);
        // Backs up the worker's own guard: once the spend the CLI has seen reaches the budget, no new check starts.
        const budgetStop = new AbortController();
        let seenPico = 0n;
        const progress = values.quiet ? undefined : progressLine(io, plan.length);
        const onResult = (r: CheckResult, n: number) => {
          progress?.(r, n);
          if (remaining === undefined || !r.tokens) return;
          seenPico += costOfTokens(spec, r.model, r.tokens, startedAt);
          if (seenPico >= remaining) budgetStop.abort();
        };
        const suites = await runSuites(config, { progress: onResult, stop: AbortSignal.any([stop.signal, budgetStop.signal]) });
        if (suites.firstCheckAt !== undefined && suites.lastCheckAt !== undefined) {
          clock.startupMs ??= suites.firstCheckAt;
          const checksMs = suites.lastCheckAt - suites.firstCheckAt;
          clock.checksMs += checksMs;
          clock.requestsMs += Math.min(checksMs, suites.requestMs);
        }
        const notRun = stop.signal.aborted ? `interrupted: not run (${stop.signalName})` : budgetStop.signal.aborted ? `budget: not run, the run's spend reached its --budget-usd of ${values['budget-usd']} USD` : undefined;
        const results = notRun === undefined ? suites.results : [...suites.results, ...missing(plan, suites.results, notRun)];
        const cell = buildRecords(spec, config, results, { startedAt, finishedAt: new Date(), interrupted: stop.signal.aborted, version: VERSION, referenceTime });
        spentPico += cell.reduce((sum, r) => sum + parseUsd(r.usage.costUsd), 0n);
        if (results.some((r) => r.verdict === 'skip' && r.reason?.startsWith('budget:'))) budgetReached = true;
        records.push(...cell);
      } finally {
        await target.close();
      }
    }

    const extras = {
      ...(budgetUsd !== undefined ? { budget: { limitUsd: values['budget-usd']!, reached: budgetReached } } : {}),
      ...(estimate ? { estimate } : {}),
    };
    const reportStart = performance.now();
    const cells = records.map((r) => ({ ...r, ...extras }));
    const paths = cells.map((r) => writeReports(options.reportDir, r, false));
    const reportingMs = performance.now() - reportStart;
    const wallMs = performance.now();
    const startupMs = clock.startupMs ?? wallMs - reportingMs;
    const checks = records.reduce((n, r) => n + r.results.filter((x) => x.verdict !== 'skip' || !/^(interrupted|budget):/.test(x.reason ?? '')).length, 0);
    const timings: RunTimings = {
      wallMs: Math.round(wallMs),
      startupMs: Math.round(startupMs),
      requestsMs: Math.round(clock.requestsMs),
      judgingMs: Math.round(clock.checksMs - clock.requestsMs),
      reportingMs: Math.round(reportingMs),
      otherMs: Math.max(0, Math.round(wallMs - startupMs - clock.checksMs - reportingMs)),
      checks,
      checksPerSecond: wallMs > 0 ? Math.round((checks / (wallMs / 1000)) * 10) / 10 : 0,
    };
    const timed = cells.map((r) => ({ ...r, timings }));
    const reportPaths = timed.map((r, i) => {
      writeFileSync(paths[i]!, serializeRunRecord(r));
      return paths[i]!;
    });

    const interrupted = stop.signal.aborted;
    const exitCode = exitCodeOf(timed, { strict: values.strict === true, ...(baseline ? { baseline } : {}) });
    mkdirSync(options.reportDir, { recursive: true });
    if (timed.length > 0) {
      // Paths relative to the summary, so the report directory can be moved or published whole.
      const summary = { ...summaryOf(timed, reportPaths.map((p) => relative(options.reportDir, p))), ...(interrupted ? { interrupted } : {}), ...extras, timings };
      writeFileSync(join(options.reportDir, 'summary.json'), serializeRunSummary(summary));
      writeFileSync(join(options.reportDir, 'summary.md'), renderMarkdownSummary(summary, timed));
      if (values.json) writeFileSync(resolve(values.json), `${JSON.stringify({ summary, records: timed }, null, 2)}\n`);
    }
    for (const r of timed) {
      const s = r.summary;
      io.stdout(`${r.model} @ ${r.target.baseUrl}: ${s.pass} passed, ${s.fail} failed (${s.mustFailures} must, ${s.shouldFailures} should, ${s.advisoryFailures} advisory), ${s.skip} skipped, ${s.unsupported} unsupported, ${s.error} errors; ${r.usage.promptTokens + r.usage.completionTokens} tokens, ${r.usage.costUsd} USD`);
    }
    const sec = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    io.stderr(`svc-conformance: ${timings.checks} checks in ${sec(timings.wallMs)} (${timings.checksPerSecond} checks/s): start-up ${sec(timings.startupMs)}, requests ${sec(timings.requestsMs)}, judging ${sec(timings.judgingMs)}, reporting ${sec(timings.reportingMs)}, other ${sec(timings.otherMs)}`);
    if (budgetReached) io.stderr(`svc-conformance: the spend reached --budget-usd ${values['budget-usd']}: the checks not run are reported as skipped (budget).`);
    io.stdout(`reports: ${options.reportDir} (summary.md)${exitCode === 0 ? '' : ' — failures are listed in each report.md'}`);
    if (out !== undefined) io.stdout(`recording: ${resolve(out)} (manifest.json, exchanges/)`);
    if (interrupted) {
      io.stderr(`svc-conformance: interrupted (${stop.signalName}): the reports are partial; checks not run are reported as skipped (interrupted).`);
      return stop.signalName === 'SIGTERM' ? EXIT.terminated : EXIT.interrupted;
    }
    return exitCode === 0 ? EXIT.ok : EXIT.conformanceFailure;
  }
}

/** Planned (check, model) pairs without a result: reported as skipped, with why they did not run. */
function missing(plan: readonly Planned[], results: readonly CheckResult[], reason: string): CheckResult[] {
  const done = new Set(results.map((r) => `${r.checkId}|${r.model}`));
  return plan
    .filter((p) => !done.has(`${p.check.id}|${p.model}`))
    .map(({ check, model }) => ({ checkId: check.id, title: check.title, area: check.area, severity: check.severity, basis: basisText(check.basis), specRefs: check.specRefs, model, verdict: 'skip', reason, durationMs: 0 }));
}

function costOfTokens(spec: Spec, model: string, t: TokenUse, at: Date): bigint {
  try {
    return costOf(spec, model, { promptCacheHitTokens: t.cacheHitTokens, promptCacheMissTokens: Math.max(0, t.promptTokens - t.cacheHitTokens), completionTokens: t.completionTokens }, at);
  } catch {
    return 0n; // a model without a price: nothing the budget can count
  }
}

function progressLine(io: CommandIO, planned: number) {
  return (r: CheckResult, n: number) => {
    const mark = r.verdict === 'pass' ? 'pass ' : r.verdict.padEnd(5);
    io.stderr(`  [${String(n).padStart(String(planned).length)}/${planned}] ${mark} ${r.checkId} (${r.model})${r.verdict === 'pass' ? '' : r.reason ? `: ${r.reason}` : r.failures?.[0] ? `: ${r.failures[0].message}` : ''}`);
  };
}

export function hostSlug(baseUrl: string): string {
  const u = new URL(baseUrl);
  return `${u.hostname}${u.port ? `_${u.port}` : ''}${u.pathname.replace(/\/+$/, '').replace(/[^A-Za-z0-9._-]+/g, '_')}`;
}

/** report.json, report.md, junit.xml and report.html of one cell; returns the report.json path. */
export function writeReports(dir: string, record: RunRecord, json = true): string {
  const cell = join(dir, hostSlug(record.target.baseUrl), record.model);
  mkdirSync(cell, { recursive: true });
  if (json) writeFileSync(join(cell, 'report.json'), serializeRunRecord(record));
  writeFileSync(join(cell, 'report.md'), renderMarkdown(record));
  writeFileSync(join(cell, 'junit.xml'), renderJunit(record));
  writeFileSync(join(cell, 'report.html'), renderHtml(record));
  return join(cell, 'report.json');
}

