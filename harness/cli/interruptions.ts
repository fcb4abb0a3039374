import { RunStop } from '#harness/runner/runStop.ts';
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
 * SIGINT and SIGTERM while a run goes on, handed to the run's one stop (runner/runStop.ts): the
 * first stops new checks and every new request; what is running gets the stop's grace, then every
 * wait is abandoned (requests in flight, a body being read, a Retry-After, the load phase's
 * recovery) and the partial reports are written. A second one exits at once.
 */
export function interruptions(io: CommandIO, stop: RunStop = new RunStop()): RunStop & { dispose(): void } {
  const dispose = onStopSignal((signal) => {
    if (stop.signal.aborted) {
      io.stderr(`svc-conformance: ${signal} again: stopping now, reports not written.`);
      process.exit(signal === 'SIGTERM' ? EXIT.terminated : EXIT.interrupted);
    }
    io.stderr(`svc-conformance: ${signal}: no new check or request starts; what is running gets ${stop.graceMs / 1000} s, then every wait is abandoned and the partial reports are written (${signal === 'SIGINT' ? 'Ctrl-C' : 'send it'} again to stop at once).`);
    stop.stop({ kind: 'signal', signal });
  });
  const disposeStop = stop.dispose.bind(stop);
  return Object.assign(stop, {
    dispose: () => {
      dispose();
      disposeStop();
    },
  });
}
