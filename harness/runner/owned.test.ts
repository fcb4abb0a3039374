import { expect, test } from 'vitest';
import type { CheckResult } from '#harness/core/outcome.ts';
import { attributeOwned } from './owned.ts';

const result = (checkId: string, verdict: CheckResult['verdict'], ownedBy?: string, model = 'm'): CheckResult => ({
  checkId, title: checkId, area: checkId.split('.')[0]!, severity: 'must', specRefs: [], model, verdict, durationMs: 1,
  ...(verdict === 'fail' ? { failures: [{ message: 'the request was refused (HTTP 400) because of `stop`', ...(ownedBy ? { ownedBy } : {}) }] } : {}),
});

test('a failure another check owns is inconclusive where that check fails too on the same model, and stands where it does not', () => {
  const OWNER = 'request.stop.accepted-within-bounds';
  const [owned, , elsewhere, own, alone] = attributeOwned([
    result('rule.chat.stop.not-in-output', 'fail', OWNER),
    result(OWNER, 'fail'),
    result('rule.chat.stop.not-in-output', 'fail', OWNER, 'other'),
    result('rule.x', 'fail'),
    result('stream.assembled.honours-stop', 'fail', 'request.nothing.accepted-within-bounds'),
  ]);
  expect([owned!.verdict, owned!.skipKind, owned!.failures]).toEqual(['skip', 'inconclusive', undefined]);
  expect(owned!.reason).toBe(`inconclusive: the request was refused (HTTP 400) because of \`stop\`; ${OWNER} fails for that refusal: one defect, reported there`);
  // The owner on another model passed (or was not run): this failure is the only report of the defect there.
  expect(elsewhere!.verdict).toBe('fail');
  expect(own!.verdict).toBe('fail');
  expect(alone!.verdict).toBe('fail');
});
