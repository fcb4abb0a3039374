import { STOP_GRACE_MS } from '#harness/transport/timing.ts';
import { EXIT } from './command.ts';
import type { CommandIO } from './command.ts';

/**
 * SIGINT and SIGTERM while a run goes on: the first stops new checks (those running get a short
 * grace, then their requests are abandoned: timing.ts STOP_GRACE_MS), and the partial reports are
 * written; a second one exits at once.
 */
export function interruptions(io: CommandIO): { signal: AbortSignal; signalName: 'SIGINT' | 'SIGTERM'; dispose(): void } {
  const controller = new AbortController();
  const state = { signal: controller.signal, signalName: 'SIGINT' as 'SIGINT' | 'SIGTERM', dispose };
  const on = (signal: 'SIGINT' | 'SIGTERM') => () => {
    if (controller.signal.aborted) {
      io.stderr(`svc-conformance: ${signal} again: stopping now, reports not written.`);
      process.exit(signal === 'SIGTERM' ? EXIT.terminated : EXIT.interrupted);
    }
    state.signalName = signal;
    io.stderr(`svc-conformance: ${signal}: no new checks start; the running ones get ${STOP_GRACE_MS / 1000} s, then the partial reports are written (${signal === 'SIGINT' ? 'Ctrl-C' : 'send it'} again to stop at once).`);
    controller.abort(signal);
  };
  const onInt = on('SIGINT');
  const onTerm = on('SIGTERM');
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  function dispose() {
    process.off('SIGINT', onInt);
    process.off('SIGTERM', onTerm);
  }
  return state;
}
