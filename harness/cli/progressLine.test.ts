import { describe, expect, test } from 'vitest';
import { resultOf } from '#harness/testing/results.ts';
import type { CheckResult } from '#harness/core/outcome.ts';
import { captureIO } from '#harness/testing/captureIO.ts';
import { progressLine } from './progressLine.ts';

const result = (checkId: string, verdict: CheckResult['verdict'], reason?: string): CheckResult => resultOf({ checkId, title: checkId, area: 'a', severity: 'must', specRefs: [], model: 'm', verdict, ...(reason ? { reason } : {}), durationMs: 0 });

describe('progressLine', () => {
  test('checks ending in a row with the same verdict and reason print once, then how many more did', () => {
    const io = captureIO();
    const line = progressLine(io);
    const dead = 'HARNESS_CONNECT: connection refused — POST http://127.0.0.1:9/chat/completions';
    const feed: CheckResult[] = [result('a.one', 'pass'), result('a.two', 'error', dead), result('a.three', 'error', dead), result('a.four', 'error', dead), result('a.five', 'skip', 'other'), result('a.six', 'error', dead), result('a.seven', 'error', dead)];
    feed.forEach((r, i) => line(r, i + 1, feed.length));
    expect(io.err).toEqual([
      '  [1/7] pass  a.one (m)',
      `  [2/7] error a.two (m): ${dead}`,
      '  … and 2 more checks: error, for the same reason',
      '  [5/7] skip  a.five (m): other',
      `  [6/7] error a.six (m): ${dead}`,
      '  … and 1 more check: error, for the same reason',
    ]);
  });

  test('the same cause said of different requests (another path, abandoned or not sent) folds too', () => {
    const io = captureIO();
    const line = progressLine(io);
    const cause = 'POST {base_url}/chat/completions was declared unresponsive: a request waited its whole timeout: HARNESS_TIMEOUT: no response headers within 60000 ms — POST http://h/chat/completions';
    // The cause is typed (runner/execute.ts): the same root, whatever the words around it.
    const typed = { code: 'HARNESS_TIMEOUT', what: 'no response headers within 60000 ms', declared: { route: 'POST {base_url}/chat/completions', grounds: 'a request waited its whole timeout' } };
    const feed = [
      resultOf({ ...result('a.one', 'error', `HARNESS_UNRESPONSIVE: abandoned: ${cause} — POST http://h/chat/completions`), cause: typed }),
      resultOf({ ...result('a.two', 'error', `HARNESS_UNRESPONSIVE: not sent: ${cause} — GET http://h/models`), cause: typed }),
      resultOf({ ...result('a.three', 'error', `HARNESS_UNRESPONSIVE: not sent: ${cause} — POST http://h/beta/chat/completions`), cause: typed }),
    ];
    feed.forEach((r, i) => line(r, i + 1, feed.length));
    expect(io.err).toHaveLength(2);
    expect(io.err[1]).toBe('  … and 2 more checks: error, for the same reason');
  });

  test('passes are never folded: each is its own line', () => {
    const io = captureIO();
    const line = progressLine(io);
    line(result('a.one', 'pass'), 1, 2);
    line(result('a.two', 'pass'), 2, 2);
    expect(io.err).toEqual(['  [1/2] pass  a.one (m)', '  [2/2] pass  a.two (m)']);
  });

  test('text quoted from an answer never breaks a line: control characters escaped, a long reason cut', () => {
    const io = captureIO();
    const line = progressLine(io);
    line(result('a.one', 'fail', 'content was "line one\nline two\r\n\tthree\u2028four"'), 1, 2);
    line(result('a.two', 'skip', 'x'.repeat(1000)), 2, 2);
    expect(io.err).toHaveLength(2);
    expect(io.err[0]).toBe('  [1/2] fail  a.one (m): content was "line one\\nline two\\r\\n\\tthree\\u2028four"');
    expect(io.err.every((l) => !/[\n\r\u2028]/.test(l))).toBe(true);
    expect(io.err[1]).toBe(`  [2/2] skip  a.two (m): ${'x'.repeat(300)}…`);
  });

  test('a defect handed to another check says that it is pending, and on whom', () => {
    const io = captureIO();
    const owned = resultOf({ ...result('rule.chat.stop.not-in-output', 'fail', ''), failures: [{ message: 'refused because of `stop`', ownedBy: 'request.stop.accepted-within-bounds' }] });
    const blocked = resultOf({ ...result('fim.x.y', 'fail', ''), failures: [{ message: 'blocked by endpoint.fim.served: 404', ownedBy: 'endpoint.fim.served', ownedOn: 'run' }] });
    progressLine(io)(owned, 1, 2);
    progressLine(io)(blocked, 2, 2);
    expect(io.err[0]).toMatch(/pend  rule\.chat\.stop\.not-in-output \(m\): refused because of `stop` \(handed to request\.stop\.accepted-within-bounds, settled once every check has ended: inconclusive if it fails on it, else this check's failure\)$/);
    expect(io.err[1]).toMatch(/pend  fim\.x\.y \(m\): blocked by endpoint\.fim\.served: 404 \(handed to endpoint\.fim\.served, settled once every check has ended: blocked if it fails on it, else this check's failure\)$/);
  });
});
