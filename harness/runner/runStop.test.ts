import { getEventListeners } from 'node:events';
import { describe, expect, test } from 'vitest';
import { causeText, graced, interruptedBy, RunStop, stopAlsoOn, Stopped, type Schedule } from './runStop.ts';

/** Timers a test fires by hand: each scheduled call, with its ms. */
function manual(): { schedule: Schedule; pending: { ms: number; fire(): void; cancelled: boolean }[] } {
  const pending: { ms: number; fire(): void; cancelled: boolean }[] = [];
  return {
    pending,
    schedule: (ms, fire) => {
      const t = { ms, fire, cancelled: false };
      pending.push(t);
      return () => (t.cancelled = true);
    },
  };
}

describe('RunStop: one place stops the run, through signals handed down', () => {
  test('a stop aborts `signal` at once with its cause, and `abandon` only after the grace', () => {
    const timers = manual();
    const stop = new RunStop({ graceMs: 2000, schedule: timers.schedule });
    stop.stop({ kind: 'signal', signal: 'SIGTERM' });
    expect(stop.signal.aborted).toBe(true);
    expect(stop.signal.reason).toBeInstanceOf(Stopped);
    expect((stop.signal.reason as Error).message).toBe('SIGTERM');
    expect(stop.abandon.aborted).toBe(false);
    expect(timers.pending.map((t) => t.ms)).toEqual([2000]);
    timers.pending[0]!.fire();
    expect(stop.abandon.aborted).toBe(true);
    expect(stop.abandon.reason).toBe(stop.signal.reason);
  });

  test('the first cause stands; abandonNow skips the grace', () => {
    const timers = manual();
    const stop = new RunStop({ schedule: timers.schedule });
    stop.stop({ kind: 'signal', signal: 'SIGINT' });
    stop.stop({ kind: 'ceiling', ms: 1 });
    expect(stop.cause).toEqual({ kind: 'signal', signal: 'SIGINT' });
    stop.abandonNow();
    expect(stop.abandon.aborted).toBe(true);
    expect(timers.pending[0]!.cancelled).toBe(true);
  });

  test('the ceiling stops the run as a signal does, with its own cause; disarmed, or once stopped, it does not', () => {
    const timers = manual();
    const stop = new RunStop({ schedule: timers.schedule });
    stop.ceiling(90_000);
    expect(stop.signal.aborted).toBe(false);
    timers.pending[0]!.fire();
    expect(stop.cause).toEqual({ kind: 'ceiling', ms: 90_000 });
    expect(interruptedBy(stop.cause!)).toBe('ceiling');
    expect(causeText(stop.cause!)).toBe('its time ceiling (90 s)');

    const other = new RunStop({ schedule: timers.schedule });
    const disarm = other.ceiling(1000);
    disarm();
    expect(timers.pending.at(-1)!.cancelled).toBe(true);
    const third = new RunStop({ schedule: timers.schedule });
    third.ceiling(1000);
    const armed = timers.pending.at(-1)!;
    third.stop({ kind: 'signal', signal: 'SIGINT' });
    expect(armed.cancelled).toBe(true);
  });

  test('stopAlsoOn: the budget stops the target as a signal would, and leaves no listener behind', async () => {
    const stop = new RunStop({ graceMs: 10 });
    const budget = new AbortController();
    const here = stopAlsoOn(stop, budget.signal, 10);
    expect(here.signal.aborted).toBe(false);
    budget.abort('the budget was reached');
    expect(here.signal.aborted).toBe(true);
    expect(here.abandon.aborted).toBe(false);
    await new Promise((done) => setTimeout(done, 30));
    expect(here.abandon.aborted).toBe(true);
    here.dispose();
    expect(getEventListeners(budget.signal, 'abort')).toEqual([]);
    expect(stop.signal.aborted).toBe(false);
    const lone = graced(new AbortController().signal);
    lone.dispose();
    expect(getEventListeners(lone.signal, 'abort')).toEqual([]);
  });
});
