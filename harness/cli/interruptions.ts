import { STOP_GRACE_MS } from '#harness/transport/timing.ts';
import { EXIT } from './command.ts';
import type { CommandIO } from './command.ts';

type StopSignal = 'SIGINT' | 'SIGTERM';
const STOP_SIGNALS: readonly StopSignal[] = ['SIGINT', 'SIGTERM'];

/**
 * Whoever waits for a stop signal now. The process has one listener per signal while anyone waits,
 * however many runs go on in it at once (in-process runs, tests), and none once they have ended.
 */
const waiting = new Set<(signal: StopSignal) => void>();
const dispatch = (signal: StopSignal) => () => {
  for (const handle of [...waiting]) handle(signal);
};
const LISTENERS: Record<StopSignal, () => void> = { SIGINT: dispatch('SIGINT'), SIGTERM: dispatch('SIGTERM') };

/** Calls `handle` on each SIGINT or SIGTERM until the function returned is called (idempotent). */
export function onStopSignal(handle: (signal: StopSignal) => void): () => void {
  if (waiting.size === 0) for (const s of STOP_SIGNALS) process.on(s, LISTENERS[s]);
  waiting.add(handle);
  return () => {
    if (!waiting.delete(handle)) return;
    if (waiting.size === 0) for (const s of STOP_SIGNALS) process.off(s, LISTENERS[s]);
  };
}

/**
 * SIGINT and SIGTERM while a run goes on: the first stops new checks (those running get a short
 * grace, then their requests are abandoned: timing.ts STOP_GRACE_MS), and the partial reports are
 * written; a second one exits at once.
 */
export function interruptions(io: CommandIO): { signal: AbortSignal; signalName: StopSignal; dispose(): void } {
  const controller = new AbortController();
  const dispose = onStopSignal((signal) => {
    if (controller.signal.aborted) {
      io.stderr(`svc-conformance: ${signal} again: stopping now, reports not written.`);
      process.exit(signal === 'SIGTERM' ? EXIT.terminated : EXIT.interrupted);
    }
    state.signalName = signal;
    io.stderr(`svc-conformance: ${signal}: no new checks start; the running ones get ${STOP_GRACE_MS / 1000} s, then the partial reports are written (${signal === 'SIGINT' ? 'Ctrl-C' : 'send it'} again to stop at once).`);
    controller.abort(signal);
  });
  const state = { signal: controller.signal, signalName: 'SIGINT' as StopSignal, dispose };
  return state;
}
