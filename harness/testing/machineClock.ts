import { vi } from 'vitest';

const DAY_MS = 86_400_000;

/**
 * Runs `fn` with the machine's clock `days` ahead of today, advancing as real time does: `Date`
 * alone is faked, everywhere in this process (the harness, its replay server, the clients), so
 * whatever reads the machine's clock without being handed one is caught. Timers stay real: undici
 * and MSW stall when vitest fakes every timer.
 */
export async function withMachineClockAhead<T>(days: number, fn: () => Promise<T>): Promise<T> {
  if (days === 0) return fn();
  const ahead = Date.now() + days * DAY_MS;
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
  vi.setSystemTime(ahead);
  try {
    return await fn();
  } finally {
    vi.useRealTimers();
  }
}
