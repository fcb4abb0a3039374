// Test support: a check result of any verdict, written as loosely as a test needs it, completed with
// what its verdict must carry (results/upgradeResult.ts, the reader of records written before).
import type { CheckResult } from '#harness/core/outcome.ts';
import { upgradedResult, type LooseResult } from '#harness/results/upgradeResult.ts';

export type { LooseResult };

/**
 * The result, with what its verdict requires (a skip's kind, an error's cause) filled in where left
 * out, as the reader of old records fills it; a pass that does not say is taken to have judged one answer.
 */
export const resultOf = (r: LooseResult): CheckResult => upgradedResult(r.verdict === 'pass' && r.judged === undefined ? { ...r, judged: { exchanges: 1 } } : r);
