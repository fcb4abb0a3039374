import { resolve } from 'node:path';
import { UsageError } from '#harness/core/errors/index.ts';
import { defaultModels } from '#harness/checks/index.ts';
import { isFaultId, type FaultId } from '#harness/emulator/faults/catalogue.ts';
import { checkBaselineCovers } from '#harness/results/index.ts';
import { gateInputsOf } from '../gateInputs.ts';
import { runTargets, type RunSettings } from '#harness/runner/runTargets.ts';
import { concurrencyPolicyOf } from '#harness/transport/index.ts';
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
import { checkRepeat, clientsOf, selectionOf } from '../runFlags.ts';
import { flagsOf, readOptions, settingsOf, type OptionValues, type RunFlagValues } from '../runOptions.ts';
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
  // One pass over the table: every option read by its row, in the table's order; then the rules across options.
  const options = readOptions(name, values, { spec: () => spec, features: () => featuresOf(spec) });
  // The options that plan checks of their own, as given: a replay of a gateway run holds its upstream.
  const enabling = new Set([...(options['upstream-port'] !== undefined || recorded.some((id) => id.startsWith('gateway.')) ? ['upstream-port'] : []), ...(options.load ? ['load'] : [])]);
  const selection = selectionOf(name, spec, models, options.only, options.skip, options.clients ?? clientsOf(name, undefined, recorded), enabling);
  const faults = options.fault.map((f): FaultId => {
    if (!isFaultId(f)) throw new UsageError(`run: --fault ${f} is not in the catalogue. Run \`svc-conformance emulate --list-faults\`.`);
    return f;
  });
  if (faults.length > 0 && values['base-url']) throw new UsageError('run: --fault applies to the embedded emulator only; drop --base-url, or start `svc-conformance emulate --fault ...` and point --base-url at it.');
  checkRepeat(name, options.repeat, values.fixtures !== undefined);
  const concurrency = concurrencyPolicyOf(options.concurrency, options['max-in-flight']);
  const settings: RunSettings = { ...settingsOf(options), ...selection, command: name, models, concurrency: concurrency.initial, maxConcurrency: concurrency.max, version: VERSION };
  const budget = options['budget-usd'] === undefined ? undefined : new BudgetLedger(options['budget-usd'].usd, options['budget-usd'].pico);
  // Created or refused now: a paid run must not end unable to write its reports.
  runOutputs(name, { reportDir: options['report-dir'], json: options.json, out });
  const targets = await targetsOf(
    {
      command: name,
      modelMap: options['model-map'],
      headers: [...options.header, ...options['header-env']],
      without: options.without,
      ...(values.config === undefined ? {} : { config: { file: values.config, targets: fromConfig.targets } }),
      baseUrls: options['base-url'],
      fixtures: options.fixtures,
      fast: options.fast,
      apiKeyEnv: options['api-key-env'],
      emptyBalanceKeyEnv: options['empty-balance-key-env'],
      messagesBaseUrl: options['messages-base-url'],
      now: options.now,
      faults,
      ...(options.load ? { load: options.load } : {}),
      ...upstreamFlags(name, options),
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
    return reportRun(ran, { reportDir: resolve(options['report-dir']), json: options.json, ...(baseline ? { baseline } : {}), ...(known ? { known } : {}), budget, stepSummary: settings.stepSummary, recordDir: settings.recordDir, interrupted }, io);
  } finally {
    stop.dispose();
    // Targets the loop never reached (a refused estimate, an error) are closed too; closing twice is harmless.
    await Promise.all(targets.map(({ target }) => target.close().catch(() => undefined)));
  }
}

/** --upstream-port with --upstream-url and --upstream-key-env, each read by its row; the companions alone are an error. */
function upstreamFlags(command: 'run' | 'record', options: OptionValues): { upstream?: UpstreamFlags } {
  const port = options['upstream-port'];
  if (port === undefined) {
    const alone = (['upstream-url', 'upstream-key-env'] as const).find((f) => options[f] !== undefined);
    if (alone !== undefined) throw new UsageError(`${command}: --${alone} goes with --upstream-port PORT, the port the gateway calls (docs/endpoints.md, "Judging a gateway").`);
    return {};
  }
  const url = options['upstream-url'];
  const keyEnv = options['upstream-key-env'];
  return { upstream: { port, ...(url !== undefined ? { url } : {}), ...(keyEnv !== undefined ? { keyEnv } : {}), ...(options.now ? { now: options.now } : {}) } };
}
