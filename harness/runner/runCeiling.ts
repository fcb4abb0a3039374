import { LOAD_MAX_TOKENS, rampChain, recoveryBoundMs } from '#harness/load/drive.ts';
import { durationText } from '#harness/core/durationText.ts';
import type { Spec } from '#harness/spec/model.ts';
import { bodyDeadlineMs, checkBoundMs, timingOf } from '#harness/transport/timing.ts';
import { planPhases } from './plan.ts';
import { checkWorkers } from './runChecks.ts';
import { checkSettingsOf, type GatewaySettings, type RunSettings } from './runConfig.ts';

/** Start-up (the reference time, the cost estimate) and the reports: seconds each, allowed this long. */
export const SETUP_MS = 2 * 60_000;

/** A run's time ceiling (the most it may take, past which it stops as interrupted) and what it is made of, in words. */
export interface RunCeiling {
  ms: number;
  /** `142 check runs, up to 128 at a time, each within 15 min: 30 min`, and so on. */
  parts: string[];
}

/** What the ceiling reads of a target: its upstream (a gateway run plans the gateway checks). */
export type CeilingTarget = GatewaySettings;

/**
 * The most a run may take, derived from its settings, never measured: each target's checks in
 * waves of the checks run at once (runChecks.ts checkWorkers), each within the per-check bound
 * (timing.ts checkBoundMs); its load phase on each model, the ramp's longest chain of requests each
 * at its longest (connect, headers, the body's deadline) and the recovery within its bound (the
 * back-off cap); all `--repeat` times; plus the start-up and the reports. Targets that run at once
 * take the longest of theirs, one after another the sum. The bounds of its parts already end every
 * wait of a run that behaves: the ceiling is what ends one that does not.
 *
 * It takes the whole RunSettings, not a slice: a new option's feature is often the ceiling reading
 * its setting, and cli/addingOption.test.ts holds that such an option changes three files only (its
 * row, this function, the page), which a slice to widen would make four.
 */
export function runCeiling(spec: Spec, targets: readonly CeilingTarget[], settings: RunSettings, together: boolean): RunCeiling {
  const timing = timingOf(settings);
  const checkMs = checkBoundMs(timing);
  const workers = checkWorkers(settings);
  const perTarget = targets.map((t) => {
    const run = { ...checkSettingsOf(settings), ...(t.upstream !== undefined ? { upstream: t.upstream } : {}) };
    // The plan's phases, as the runner runs them: the checks at rest, then the load phase model by model.
    const phases = planPhases(spec, run);
    const checks = phases.reduce((n, p) => n + (p.kind === 'at-rest' ? p.checks.length : 0), 0);
    const checksMs = Math.ceil(checks / workers) * checkMs;
    const loadModels = phases.filter((p) => p.kind === 'load').length;
    const requestMs = timing.connectMs + timing.headersMs + bodyDeadlineMs(timing, { max_tokens: LOAD_MAX_TOKENS });
    const loadEachMs = settings.load ? rampChain(settings.load) * requestMs + recoveryBoundMs(spec) + requestMs : 0;
    return { checks, checksMs, loadModels, loadEachMs, ms: settings.repeat * (checksMs + loadModels * loadEachMs) };
  });
  const longest = perTarget.reduce((a, b) => (b.ms > a.ms ? b : a), perTarget[0] ?? { checks: 0, checksMs: 0, loadModels: 0, loadEachMs: 0, ms: 0 });
  const runsMs = together ? longest.ms : perTarget.reduce((sum, t) => sum + t.ms, 0);
  const parts = [
    ...(longest.checks === 0 ? [] : [`${longest.checks} check runs${targets.length > 1 ? ` per target${together ? ', the targets at once' : ', one target after another'}` : ''}, up to ${workers} at a time, each within ${durationText(checkMs)}: ${durationText(longest.checksMs)}`]),
    ...(longest.loadModels > 0 ? [`the load phase on ${longest.loadModels === 1 ? '1 model' : `${longest.loadModels} models`}, each within ${durationText(longest.loadEachMs)}`] : []),
    ...(settings.repeat > 1 ? [`${settings.repeat} times over`] : []),
    `${durationText(SETUP_MS)} to start and report`,
  ];
  return { ms: runsMs + SETUP_MS, parts };
}
