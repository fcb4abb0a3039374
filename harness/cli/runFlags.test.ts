import { describe, expect, test } from 'vitest';
import { DEFAULT_TIMING, timingOf } from '#harness/transport/timing.ts';
import { readOptions, settingsOf, type RunFlagValues } from './runOptions.ts';

/** The timing part of the run's settings, as `run` reads it from these flags. */
const timeoutsOf = (command: 'run' | 'record', values: RunFlagValues) => {
  const { timeoutMs, deadlineMs } = settingsOf(readOptions(command, values, { spec: () => { throw new Error('no spec needed'); }, features: () => [] }));
  return { timeoutMs, deadlineMs };
};

/*
 * The timeouts a run waits with: what `run` hands the runner (commands/run.ts: the table's pass and settingsOf), which makes its
 * timing with timingOf. The tests that stall an endpoint give --timeout-ms (hostile.test.ts,
 * unresponsive.test.ts) and find it in their evidence; this is the other half: a run given none waits
 * DEFAULT_TIMING's, declared once in transport/timing.ts.
 */
describe('--timeout-ms and --deadline-ms', () => {
  test('a run given neither waits DEFAULT_TIMING', () => {
    const given = timeoutsOf('run', {});
    expect(given).toEqual({ timeoutMs: undefined, deadlineMs: undefined });
    expect(timingOf(given)).toEqual(DEFAULT_TIMING);
  });

  test('--timeout-ms sets the headers and idle timeouts (and caps connecting), --deadline-ms a whole body', () => {
    expect(timingOf(timeoutsOf('run', { 'timeout-ms': '2500' }))).toEqual({ ...DEFAULT_TIMING, connectMs: 2500, headersMs: 2500, idleMs: 2500 });
    expect(timingOf(timeoutsOf('record', { 'deadline-ms': '9000' }))).toEqual({ ...DEFAULT_TIMING, totalMs: 9000 });
  });

  test('a bad value is refused, naming its flag', () => {
    expect(() => timeoutsOf('run', { 'timeout-ms': '10s' })).toThrow(/^run: --timeout-ms must be an integer from 100 to 3600000 \(got "10s"\)/);
    expect(() => timeoutsOf('run', { 'timeout-ms': '500', 'deadline-ms': '0' })).toThrow(/^run: --deadline-ms must be/);
  });
});
