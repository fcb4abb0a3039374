import { describe, expect, test } from 'vitest';
import { runLoad } from './load/runLoad.ts';

/**
 * The short version of the load benchmark (`node --import tsx harness/bench/load/main.ts`, 30 s):
 * 500 concurrent clients for 3 s against the emulator in a child process of its own, on loopback.
 */
describe('the emulator under load', () => {
  test('500 concurrent clients: no crash, every request answered, RSS bounded, 429 only beyond the per-key limit', async () => {
    const report = await runLoad({ clients: 500, durationMs: 3_000, concurrencyPerKey: 8, sampleMs: 200, warmupMs: 1_000 });
    expect(report.problems).toEqual([]);
    // Every client got at least its first answer (the emulator saturates well before 500 in flight, so a 3 s run may hold no more).
    expect(report.requests).toBeGreaterThanOrEqual(500);
    expect(report.answered).toBe(report.requests);
    expect(Object.keys(report.statuses).sort()).toEqual(expect.arrayContaining(['200']));
    // Keys with at most the limit of clients were never refused; the keys over it were, at the limit.
    expect(report.tooManyByGroup).toMatchObject({ under: 0, at: 0 });
    expect(report.tooManyByGroup.over).toBeGreaterThan(0);
    expect(Object.keys(report.serverInFlightAtRefusal)).toEqual(['8']);
    for (const n of Object.keys(report.clientInFlightAt429)) expect(Number(n)).toBeGreaterThan(8);
    // Sampled every 200 ms by the server's own timer, which a loaded machine delays: as many as growth is judged on, not a count per second.
    expect(report.memory.samples.length).toBeGreaterThanOrEqual(3);
  }, 180_000);
});
