import { describe, expect, test } from 'vitest';
import { concurrencyAt429, judgeLoad, memoryBound, type LoadFigures, type RequestRecord } from './judgeLoad.ts';
import type { MemorySample } from './loadServer.ts';
import { keyGroups } from './runLoad.ts';

const MiB = 1024 * 1024;
const flat = (n: number, rss = 100 * MiB): MemorySample[] => Array.from({ length: n }, (_, t) => ({ t: t * 1000, rss, heapUsed: 30 * MiB, heapTotal: 40 * MiB, inFlight: 0 }));
const ok = (key: number, start: number, end: number, status = 200): RequestRecord => ({ key, start, end, status });
const clean: LoadFigures = { records: [ok(0, 0, 10)], samples: flat(9), concurrencyPerKey: 2, inFlightAtRefusal: {}, liveHeap: { third: 30 * MiB, end: 32 * MiB } };

describe('concurrencyAt429', () => {
  test('counts the key’s requests in flight during the 429, itself included, and no other key’s', () => {
    const records = [ok(0, 0, 100), ok(0, 10, 90), ok(1, 0, 100), ok(1, 5, 100), ok(0, 50, 60, 429)];
    expect(concurrencyAt429(records)).toEqual([3]);
  });
  test('takes the most over the 429’s lifetime, not only at its start', () => {
    const records = [ok(0, 0, 20, 429), ok(0, 5, 50), ok(0, 6, 50)];
    expect(concurrencyAt429(records)).toEqual([3]);
  });
  test('a request that ended before the 429 started does not count', () => {
    expect(concurrencyAt429([ok(0, 0, 10), ok(0, 20, 30, 429)])).toEqual([1]);
  });
});

describe('judgeLoad', () => {
  test('a clean run has no problem', () => {
    expect(judgeLoad(clean)).toEqual([]);
  });
  test('a 429 while the key was within the limit is a problem; beyond it is not', () => {
    const within = [ok(0, 0, 100), ok(0, 10, 20, 429)];
    expect(judgeLoad({ ...clean, records: within }).join()).toContain('429(s) while the key had at most 2');
    const beyond = [ok(0, 0, 100), ok(0, 1, 100), ok(0, 10, 20, 429)];
    expect(judgeLoad({ ...clean, records: beyond })).toEqual([]);
  });
  test('the server refusing under its limit is a problem', () => {
    expect(judgeLoad({ ...clean, inFlightAtRefusal: { '1': 3 } }).join()).toContain('held 1 slot(s), under the limit 2');
  });
  test('a crash, a socket error, a 500 and a broken body are each a problem', () => {
    const problems = judgeLoad({ ...clean, crashed: 'exited with SIGSEGV', records: [ok(0, 0, 1), { key: 0, start: 0, end: 1, error: 'ECONNRESET' }, ok(0, 1, 2, 500), { ...ok(0, 2, 3), malformed: true }] });
    expect(problems).toHaveLength(4);
  });
  test('RSS that keeps growing is a problem; a flat RSS is not', () => {
    const growing = flat(30).map((s, i) => ({ ...s, rss: 100 * MiB + i * 8 * MiB }));
    expect(memoryBound(growing).bounded).toBe(false);
    expect(judgeLoad({ ...clean, samples: growing }).join()).toContain('RSS kept growing');
    const warmThenFlat = flat(30).map((s, i) => ({ ...s, rss: (i < 3 ? 80 + i * 10 : 110) * MiB }));
    expect(memoryBound(warmThenFlat).bounded).toBe(true);
  });
  test('a live heap that grows between a third of the run and its end is a problem; one not measured too', () => {
    expect(judgeLoad({ ...clean, liveHeap: { third: 30 * MiB, end: 60 * MiB } }).join()).toContain('the live heap grew');
    const { liveHeap: _, ...unmeasured } = clean;
    expect(judgeLoad(unmeasured).join()).toContain('not measured');
  });
});

describe('keyGroups', () => {
  test.each([500, 100, 20, 7])('%i clients are all placed, with keys under, at and (given enough clients) over the limit', (clients) => {
    const groups = keyGroups(clients, 8);
    expect(groups.reduce((n, g) => n + g.keys * g.clientsPerKey, 0)).toBe(clients);
    for (const g of groups) expect(g.name === 'over' ? g.clientsPerKey > 8 : g.clientsPerKey <= 8).toBe(true);
    if (clients >= 100) expect(groups.map((g) => g.name)).toEqual(expect.arrayContaining(['under', 'at', 'over']));
  });
});
