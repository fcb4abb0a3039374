import { describe, expect, test } from 'vitest';
import { resultOf } from '#harness/testing/results.ts';
import type { CheckResult } from '#harness/core/outcome.ts';
import { blockedByRefusedKey, keyRefusedMessage, NO_REQUESTS } from './keyRefused.ts';

const refused = { status: 401, count: 3 };
const result = (extra: Partial<CheckResult> = {}): CheckResult => resultOf({ checkId: 'x.y.z', title: 'x', area: 'x', severity: 'must', specRefs: [], model: 'm', verdict: 'fail', failures: [{ message: 'expected 200, got 401' }], durationMs: 3, ...extra });

describe('blockedByRefusedKey', () => {
  test('a check that sent only requests without the key (a wrong or no key on purpose) keeps its verdict', () => {
    const r = result({ verdict: 'pass', failures: undefined });
    expect(blockedByRefusedKey(r, { keyed: 0, keyless: 1, refusedWithKey: 0 }, refused)).toBe(r);
  });

  test('a check whose requests with the key were refused before sending: skipped, blocked, not sent', () => {
    const refusedBefore = result({ verdict: 'error', reason: 'HARNESS_KEY_REFUSED: …', failures: undefined, cause: { code: 'UNRECORDED_CAUSE', what: 'HARNESS_KEY_REFUSED: …' } });
    // The error's cause goes with its verdict: a skip carries none (core/outcome.ts headOf).
    const { cause: _c, reason: _r, ...rest } = refusedBefore;
    expect(blockedByRefusedKey(refusedBefore, { keyed: 1, keyless: 0, refusedWithKey: 0 }, refused)).toEqual({
      ...rest,
      verdict: 'skip',
      skipKind: 'blocked',
      reason: 'not sent: the key was refused (every authenticated request was answered 401)',
    });
  });

  test('a check that judged a 401 to the key judged nothing: skipped, blocked, not judged, its failures dropped', () => {
    const out = blockedByRefusedKey(result(), { keyed: 2, keyless: 1, refusedWithKey: 1 }, refused);
    expect(out).toMatchObject({ verdict: 'skip', skipKind: 'blocked', reason: 'not judged: the key was refused (every authenticated request was answered 401); its own requests with the key were answered 401 too' });
    expect(out.failures).toBeUndefined();
  });

  test('a check that sent nothing of its own (a served verdict, a shared sample) is blocked; one skipped for a reason of its own keeps it', () => {
    expect(blockedByRefusedKey(result({ verdict: 'pass', failures: undefined }), NO_REQUESTS, refused).skipKind).toBe('blocked');
    const outOfScope = result({ verdict: 'skip', skipKind: 'out-of-scope', reason: 'out of scope: the run leaves out fim (--without)', failures: undefined });
    expect(blockedByRefusedKey(outOfScope, NO_REQUESTS, refused)).toBe(outOfScope);
  });

  test('the message names the variable and the base URL', () => {
    expect(keyRefusedMessage(refused, 'SVC_API_KEY', 'https://api.example')).toBe('the endpoint refused the API key: every authenticated request was answered 401 (3 of 3). Check that $SVC_API_KEY (--api-key-env) holds a key for https://api.example.');
  });
});
