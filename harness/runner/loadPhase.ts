import { driveLoad, type RecoveryWait } from '#harness/load/drive.ts';
import type { RecoveryWindow } from '#harness/checks/index.ts';
import { stepsOf } from '#harness/core/load.ts';
import type { TokenUse } from '#harness/core/outcome.ts';
import { loadNotRecordedReason } from '#harness/replay/recordedChecks.ts';
import { createCheckContext } from './checkContext.ts';
import { CheckTracker } from './checkTracker.ts';
import { loadShareOf } from './runConfig.ts';
import type { RunScope } from './runScope.ts';
import type { Waits } from './heartbeat.ts';

/** Where the load phase stands, for the progress line: the step, the requests in flight it holds, and what came back so far. */
export interface LoadProgress {
  model: string;
  step: number;
  steps: number;
  inFlight: number;
  sent: number;
  answered: number;
  refused: number;
  /** Set once, as the recovery after the peak begins: its window, and why it is that long. */
  recovery?: RecoveryWindow;
}

/** The load phase driven on one model: what it spent, and its requests (for the estimate). The run its checks judge is in the scope. */
export interface DrivenPhase {
  tokens: TokenUse;
  tracker: CheckTracker;
}

/**
 * Drives the load phase on `model` through the run's own transport and answer store (a phase of the
 * plan, not a second program): its requests are metered as any check's (the budget stops it), and
 * the run is left in the scope, handed to the load checks to judge (checkContext.ts `load`).
 * Undefined where it is not driven: the budget is spent, or a replay holds no phase of this N (its
 * checks say so, runMetered.ts).
 */
export async function driveLoadPhase(scope: RunScope, model: string, progress?: (p: LoadProgress) => void, waits?: Waits): Promise<DrivenPhase | undefined> {
  const n = loadShareOf(scope.config);
  if (scope.meter.reached() || loadNotRecordedReason(scope.config.target.recording, n) !== undefined) return undefined;
  const tracker = new CheckTracker(scope.meter, scope.spec);
  const ctx = createCheckContext(scope.spec, scope.config, scope.transport, model, tracker, scope);
  const seen = { sent: 0, answered: 0, refused: 0 };
  const steps = stepsOf(n);
  const run = await driveLoad(ctx, n, {
    onExchange: (x) => {
      seen.sent += 1;
      if (x.status === 200) seen.answered += 1;
      else if (x.status !== undefined) seen.refused += 1;
      progress?.({ model, step: x.step + 1, steps: steps.length, inFlight: x.inFlight, ...seen });
    },
    onRecovery: (recovery) => progress?.({ model, step: steps.length, steps: steps.length, inFlight: 1, ...seen, recovery }),
    ...(scope.stop ? { stop: scope.stop.signal } : {}),
    // Said by the heartbeat as any wait is: which request, until when.
    ...(waits ? { onWait: ({ status, ...w }: RecoveryWait) => waits.hold({ ...w, on: 'retry', ...(status === undefined ? {} : { status }) }) } : {}),
  });
  scope.loads.set(model, run);
  return { tokens: tracker.settle(), tracker };
}
