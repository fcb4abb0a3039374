import { resolve } from 'node:path';
import { UsageError } from '#harness/core/errors/index.ts';
import { parseHeader, parseHeaderEnv } from '#harness/core/extraHeaders.ts';
import { defaultModels } from '#harness/checks/index.ts';
import { isFaultId, type FaultId } from '#harness/emulator/faults/catalogue.ts';
import { checkBaselineCovers } from '#harness/results/index.ts';
import { gateInputsOf } from '../gateInputs.ts';
import { runTargets, type RunSettings } from '#harness/runner/runTargets.ts';
import { featuresOf } from '#harness/spec/features.ts';
import { BudgetLedger } from '#harness/runner/spend/budgetLedger.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { recordedCheckIds, replayModels } from '#harness/replay/replayModels.ts';
import { parseFlags, type Command, type CommandIO } from '../command.ts';
import { configFlags } from '../configFlags.ts';
import { interruptions } from '../interruptions.ts';
import { interruptedBy, RunStop } from '#harness/runner/runStop.ts';
import { runOutputs } from '../outputs.ts';
import { loadProgressLine, progressLine } from '../progressLine.ts';
import { reportRun } from '../reportRun.ts';
import { parseModelMap } from '../modelMap.ts';
import { clientsOf, concurrencyOf, parseShard, repeatOf, selectionOf, timeoutsOf } from '../runFlags.ts';
import { budgetOf, flagsOf, instant, integer, parseWithout, RANGES, type RunFlagValues } from '../runOptions.ts';
import { targetsOf } from '../targetsOf.ts';
import type { UpstreamFlags } from '#harness/targets/upstreamTarget.ts';
import { VERSION } from '../version.ts';
import { runInfo } from './runHelp.ts';

export const run: Command = {
  ...runInfo,
  run: (argv, io) => runOrRecord('run', argv, io),
};

/** `run`, and `record` (a run with --out DIR: every exchange and a manifest written there). */
export async function runOrRecord(name: 'run' | 'record', argv: string[], io: CommandIO): Promise<number> {
  const { values: flags } = parseFlags(name, argv, flagsOf(name)) as { values: RunFlagValues };
  // svc-conformance.yaml (found in the working directory, or --config) under the command line's flags.
  const fromConfig = configFlags(name, flags, io);
  const values = { ...fromConfig.values, ...flags, config: fromConfig.config };
  const out = values.out;
  if (name === 'record' && out === undefined) throw new UsageError('record: --out DIR is required (e.g. fixtures/emulator).');
  if (name === 'record' && values.fixtures !== undefined) throw new UsageError('record: --fixtures replays a recording; record a live endpoint or the embedded emulator.');
  if (values.fixtures !== undefined && (values['base-url'] || values.config !== undefined || values.fault)) throw new UsageError('run: --fixtures replaces --base-url, --config and --fault; give one target.');
  if (values.fast && values.fixtures === undefined) throw new UsageError('run: --fast applies to --fixtures only.');
  if (name === 'record' && ((values['base-url']?.length ?? 0) > 1 || values.config !== undefined)) throw new UsageError('record: one target per recording; give at most one --base-url and no --config.');
  const { spec } = loadSpec(values.spec);
  const { baseline, known } = await gateInputsOf(name, values, spec, io);
  const models = values.fixtures === undefined ? (values.model ?? defaultModels(spec)) : replayModels(values.fixtures, values.model, { defaults: defaultModels(spec), all: Object.keys(spec.models) });
  for (const m of models) if (!spec.models[m]) throw new UsageError(`run: --model ${m} is not a model of the spec (${Object.keys(spec.models).join(', ')}).`);
  const recorded = values.fixtures === undefined ? [] : recordedCheckIds(values.fixtures);
  // The options that plan checks of their own, as given: a replay of a gateway run holds its upstream.
  const load = integer(name, 'load', values.load, ...RANGES.load);
  const enabling = new Set([...(values['upstream-port'] !== undefined || recorded.some((id) => id.startsWith('gateway.')) ? ['upstream-port'] : []), ...(load ? ['load'] : [])]);
  const selection = selectionOf(name, spec, models, values.only, values.skip, clientsOf(name, values.clients, recorded), enabling);
  const now = values.now === undefined ? undefined : instant(name, values.now);
  const faults = (values.fault ?? []).map((f): FaultId => {
    if (!isFaultId(f)) throw new UsageError(`run: --fault ${f} is not in the catalogue. Run \`svc-conformance emulate --list-faults\`.`);
    return f;
  });
  if (faults.length > 0 && values['base-url']) throw new UsageError('run: --fault applies to the embedded emulator only; drop --base-url, or start `svc-conformance emulate --fault ...` and point --base-url at it.');
  // Checked in this order, so a command line with several mistakes names the same one first.
  const modelMap = parseModelMap(name, values['model-map']);
  const maxInFlight = integer(name, 'max-in-flight', values['max-in-flight'], ...RANGES['max-in-flight']);
  const concurrency = concurrencyOf(name, values.concurrency, maxInFlight);
  const { timeoutMs, deadlineMs } = timeoutsOf(name, values);
  const runs = integer(name, 'runs', values.runs, ...RANGES.runs) ?? 10;
  const coverage = integer(name, 'coverage', values.coverage, ...RANGES.coverage);
  const repeat = repeatOf(name, values.repeat, values.fixtures !== undefined);
  const seed = integer(name, 'seed', values.seed, ...RANGES.seed) ?? 1;
  const shard = parseShard(name, values.shard);
  const without = parseWithout(name, values.without, featuresOf(spec));
  const headers = [...(values.header ?? []).map((h) => parseHeader(`${name}: --header`, h)), ...(values['header-env'] ?? []).map((h) => parseHeaderEnv(`${name}: --header-env`, h))];
  const settings: RunSettings = {
    command: name,
    specDir: values.spec ? resolve(values.spec) : undefined,
    models,
    ...selection,
    shard,
    strict: values.strict === true,
    repeat,
    allowFlaky: values['allow-flaky'] === true, clientsGate: values['clients-gate'] === true,
    concurrency: concurrency.initial, maxConcurrency: concurrency.max, ...(maxInFlight === undefined ? {} : { maxInFlight }), timeoutMs, deadlineMs, runs, ...(coverage === undefined ? {} : { coverage }), ...(load === undefined || load === 0 ? {} : { load }), seed, now,
    recordDir: out === undefined ? undefined : resolve(out),
    quiet: values.quiet === true,
    version: VERSION,
  };
  const reportDir = resolve(values['report-dir'] ?? 'reports');
  const budgetUsd = values['budget-usd'];
  const budget = budgetUsd === undefined ? undefined : new BudgetLedger(budgetUsd, budgetOf(name, budgetUsd));
  // Created or refused now: a paid run must not end unable to write its reports.
  runOutputs(name, { reportDir: values['report-dir'] ?? 'reports', json: values.json, out });
  const targets = await targetsOf(
    {
      command: name,
      modelMap,
      headers,
      without,
      ...(values.config === undefined ? {} : { config: { file: values.config, targets: fromConfig.targets } }),
      baseUrls: values['base-url'],
      fixtures: values.fixtures,
      fast: values.fast === true,
      apiKeyEnv: values['api-key-env'] ?? 'SVC_API_KEY',
      emptyBalanceKeyEnv: values['empty-balance-key-env'],
      messagesBaseUrl: values['messages-base-url'],
      now,
      faults,
      ...(load ? { load } : {}),
      ...upstreamFlags(name, values, now),
    },
    spec,
  );

  const stop = interruptions(io, new RunStop(io.schedule ? { schedule: io.schedule } : {}));
  try {
    // A baseline without this run's cells would gate nothing: refused before anything is spent.
    if (baseline) checkBaselineCovers(targets.flatMap(({ target }) => models.map((model) => ({ model, target }))), baseline.records, baseline.source);
    // The last run's reports stay until this one's are complete (reportRun swaps them in): a run
    // that dies, or stops on an error, leaves them as they were.
    const ran = await runTargets(spec, targets, settings, { stop, budget, calendar: io.calendar, log: (line) => io.stderr(line), progress: settings.quiet ? undefined : progressLine(io), ...(settings.quiet ? {} : { loadProgress: loadProgressLine(io) }) });
    const interrupted = stop.cause ? interruptedBy(stop.cause) : undefined;
    return reportRun(ran, { given: values, reportDir, json: values.json, ...(baseline ? { baseline } : {}), ...(known ? { known } : {}), budget, recordDir: settings.recordDir, interrupted }, io);
  } finally {
    stop.dispose();
    // Targets the loop never reached (a refused estimate, an error) are closed too; closing twice is harmless.
    await Promise.all(targets.map(({ target }) => target.close().catch(() => undefined)));
  }
}

/** --upstream-port with --upstream-url and --upstream-key-env, checked; the companions alone are an error. */
function upstreamFlags(command: 'run' | 'record', values: RunFlagValues, now: Date | undefined): { upstream?: UpstreamFlags } {
  const port = integer(command, 'upstream-port', values['upstream-port'], ...RANGES['upstream-port']);
  if (port === undefined) {
    const alone = (['upstream-url', 'upstream-key-env'] as const).find((f) => values[f] !== undefined);
    if (alone !== undefined) throw new UsageError(`${command}: --${alone} goes with --upstream-port PORT, the port the gateway calls (docs/endpoints.md, "Judging a gateway").`);
    return {};
  }
  const url = values['upstream-url'];
  if (url !== undefined && !/^https?:\/\/[^/]/.test(url)) throw new UsageError(`${command}: --upstream-url must be an http or https URL (got ${JSON.stringify(url)}), e.g. https://api.example.com.`);
  return { upstream: { port, ...(url !== undefined ? { url } : {}), ...(values['upstream-key-env'] !== undefined ? { keyEnv: values['upstream-key-env'] } : {}), ...(now ? { now } : {}) } };
}
