import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { UsageError } from '#harness/core/errors/index.ts';
import type { CheckResult } from '#harness/core/outcome.ts';
import { buildRegistry, defaultModels } from '#harness/checks/index.ts';
import { isFaultId, type FaultId } from '#harness/emulator/index.ts';
import { renderHtml, renderJunit, renderMarkdown, renderMarkdownSummary } from '#harness/render/index.ts';
import { exitCodeOf, readRecords, serializeRunRecord, serializeRunSummary, summaryOf, type RunRecord } from '#harness/results/index.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { buildRecords } from '#harness/runner/buildRecords.ts';
import { resolveReferenceTime } from '#harness/runner/referenceTime.ts';
import type { RunConfig } from '#harness/runner/runConfig.ts';
import { runSuites } from '#harness/runner/runVitest.ts';
import { readTargetsConfig } from '#harness/targets/configFile.ts';
import { relativePath, writeManifest } from '#harness/replay/fixtureFormat.ts';
import { emulatorTarget, fixturesTarget, liveTarget, type Target } from '#harness/targets/target.ts';
import { EXIT, parseFlags, type Command, type CommandIO } from '../command.ts';
import { VERSION } from '../version.ts';

export const run: Command = {
  name: 'run',
  summary: 'run the conformance checks against the embedded emulator or a base URL, and write reports',
  help: `Usage: svc-conformance run [--base-url URL]... [--config FILE] [--api-key-env VAR] [--messages-base-url URL]
                          [--empty-balance-key-env VAR] [--model ID]... [--model-map SPEC_ID=THEIR_ID,...] [--only PATTERN]
                          [--strict] [--now ISO] [--concurrency N] [--runs N] [--seed N]
                          [--shard I/N] [--report-dir DIR] [--json FILE] [--baseline FILE] [--fault NAME]...
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
                         model_map per target
  --api-key-env VAR      environment variable holding the key (default SVC_API_KEY)
  --empty-balance-key-env VAR
                         a second key whose balance is empty (checks the 402 rule)
  --messages-base-url U  the messages-format base (default {base_url}/anthropic)
  --model ID             a model of the spec to cover (repeatable; default every
                         current model, plus the legacy aliases for lifecycle)
  --model-map A=B,...    send the spec's model A as the provider's id B
  --only PATTERN         checks whose id contains PATTERN (or matches a * glob)
  --strict               also fail on should-checks, and report unlisted fields
  --now ISO              reference time for lifecycle checks (and the embedded
                         emulator's clock); default: the server's Date header
  --concurrency N        requests in flight at most (default 4)
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
--strict); 1 a check failed; 2 a usage or configuration error.`,
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
      only: { type: 'string' },
      strict: { type: 'boolean' },
      now: { type: 'string' },
      concurrency: { type: 'string' },
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
    const now = values.now === undefined ? undefined : instant(values.now);
    const faults = (values.fault ?? []).map((f): FaultId => {
      if (!isFaultId(f)) throw new UsageError(`run: --fault ${f} is not in the catalogue. Run \`svc-conformance emulate --list-faults\`.`);
      return f;
    });
    if (faults.length > 0 && values['base-url']) throw new UsageError('run: --fault applies to the embedded emulator only; drop --base-url, or start `svc-conformance emulate --fault ...` and point --base-url at it.');
    const options = {
      apiKeyEnv: values['api-key-env'] ?? 'SVC_API_KEY',
      modelMap: parseModelMap(values['model-map']),
      concurrency: integer('concurrency', values.concurrency, 1, 256) ?? 4,
      runs: integer('runs', values.runs, 1, 100_000) ?? 10,
      seed: integer('seed', values.seed, 0, 2 ** 31 - 1) ?? 1,
      shard: parseShard(values.shard),
      reportDir: resolve(values['report-dir'] ?? 'reports'),
    };

    if (values.config !== undefined && values['base-url']) throw new UsageError('run: give targets either with --base-url or in --config, not both.');
    const fromFile = values.config !== undefined ? readTargetsConfig(resolve(values.config)) : undefined;
    const entries: { make: () => Promise<Target>; modelMap: Record<string, string> }[] = fromFile
      ? fromFile.map((t) => ({ make: async () => liveTarget(t.baseUrl, t), modelMap: { ...t.modelMap, ...options.modelMap } }))
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
    const resolved: { target: Target; modelMap: Record<string, string> }[] = [];
    for (const entry of entries) resolved.push({ target: await entry.make(), modelMap: entry.modelMap });

    const records: RunRecord[] = [];
    const reportPaths: string[] = [];
    for (const { target, modelMap } of resolved) {
      try {
        const startedAt = new Date();
        const referenceTime: RunConfig['referenceTime'] =
          target.clock !== undefined && now === undefined ? { value: target.clock, source: 'fixture' } : await resolveReferenceTime(now?.toISOString(), `${target.baseUrl}/models`, target.apiKey);
        let recordDir: string | undefined;
        if (out !== undefined) {
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
        const config: RunConfig = {
          ...(values.spec ? { specDir: resolve(values.spec) } : {}),
          target: { kind: target.kind, baseUrl: target.baseUrl, messagesBaseUrl: target.messagesBaseUrl },
          apiKey: target.apiKey,
          ...(target.emptyBalanceKey ? { emptyBalanceKey: target.emptyBalanceKey } : {}),
          apiKeyEnv: target.apiKeyEnv,
          models,
          modelMap,
          concurrency: options.concurrency,
          strict: values.strict === true,
          ...(values.only ? { only: values.only } : {}),
          ...(options.shard ? { shard: options.shard } : {}),
          runs: options.runs,
          seed: options.seed,
          referenceTime,
          lifecycleToleranceSeconds: 120,
          ...(recordDir !== undefined ? { recordDir } : {}),
        };
        const planned = registry.plan(spec, models, undefined, values.only).length;
        if (!values.quiet) io.stderr(`svc-conformance: ${target.kind} ${target.baseUrl}: ${planned} check runs on ${models.join(', ')} (reference time ${referenceTime.value}, ${referenceTime.source})`);
        const results = await runSuites(config, values.quiet ? undefined : progressLine(io, planned));
        const cell = buildRecords(spec, config, results, { startedAt, finishedAt: new Date(), interrupted: false, version: VERSION, referenceTime });
        for (const record of cell) reportPaths.push(writeReports(options.reportDir, record));
        records.push(...cell);
      } finally {
        await target.close();
      }
    }

    const exitCode = exitCodeOf(records, { strict: values.strict === true, ...(baseline ? { baseline } : {}) });
    const summary = summaryOf(records, reportPaths);
    mkdirSync(options.reportDir, { recursive: true });
    writeFileSync(join(options.reportDir, 'summary.json'), serializeRunSummary(summary));
    writeFileSync(join(options.reportDir, 'summary.md'), renderMarkdownSummary(summary, records));
    if (values.json) writeFileSync(resolve(values.json), `${JSON.stringify({ summary, records }, null, 2)}\n`);
    for (const r of records) {
      const s = r.summary;
      io.stdout(`${r.model} @ ${r.target.baseUrl}: ${s.pass} passed, ${s.fail} failed (${s.mustFailures} must, ${s.shouldFailures} should, ${s.advisoryFailures} advisory), ${s.skip} skipped, ${s.unsupported} unsupported, ${s.error} errors; ${r.usage.promptTokens + r.usage.completionTokens} tokens, ${r.usage.costUsd} USD`);
    }
    io.stdout(`reports: ${options.reportDir} (summary.md)${exitCode === 0 ? '' : ' — failures are listed in each report.md'}`);
    if (out !== undefined) io.stdout(`recording: ${resolve(out)} (manifest.json, exchanges/)`);
    return exitCode === 0 ? EXIT.ok : EXIT.conformanceFailure;
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
export function writeReports(dir: string, record: RunRecord): string {
  const cell = join(dir, hostSlug(record.target.baseUrl), record.model);
  mkdirSync(cell, { recursive: true });
  writeFileSync(join(cell, 'report.json'), serializeRunRecord(record));
  writeFileSync(join(cell, 'report.md'), renderMarkdown(record));
  writeFileSync(join(cell, 'junit.xml'), renderJunit(record));
  writeFileSync(join(cell, 'report.html'), renderHtml(record));
  return join(cell, 'report.json');
}

function instant(text: string): Date {
  const d = new Date(text);
  if (Number.isNaN(d.getTime()) || !/^\d{4}-\d{2}-\d{2}T/.test(text)) throw new UsageError(`run: --now ${JSON.stringify(text)} is not an ISO 8601 instant (e.g. 2026-07-24T15:58:00Z).`);
  return d;
}

function integer(name: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || n > max) throw new UsageError(`run: --${name} must be an integer from ${min} to ${max} (got ${JSON.stringify(value)}).`);
  return n;
}

function parseModelMap(text: string | undefined): Record<string, string> {
  if (!text) return {};
  const out: Record<string, string> = {};
  for (const pair of text.split(',')) {
    const [a, b] = pair.split('=');
    if (!a || !b) throw new UsageError(`run: --model-map takes SPEC_ID=THEIR_ID pairs separated by commas (got ${JSON.stringify(pair)}).`);
    out[a.trim()] = b.trim();
  }
  return out;
}

function parseShard(text: string | undefined): { index: number; count: number } | undefined {
  if (text === undefined) return undefined;
  const m = /^(\d+)\/(\d+)$/.exec(text);
  const index = Number(m?.[1]);
  const count = Number(m?.[2]);
  if (!m || count < 1 || index < 1 || index > count) throw new UsageError(`run: --shard takes I/N with 1 <= I <= N (got ${JSON.stringify(text)}).`);
  return { index, count };
}
