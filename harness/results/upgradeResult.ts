import type { CheckResult, ResultHead, Verdict, VerdictFields } from '#harness/core/outcome.ts';
import { skipKindOf } from './skipKind.ts';

/** A result as a record written before CheckResult said what each verdict carries may hold it. */
export type LooseResult = ResultHead & Partial<VerdictFields> & { verdict: Verdict };

/**
 * The one reader of results written before their type said what each verdict carries (a record
 * read back: parseRunRecord): a pass that did not say what it judged judged nothing anyone can
 * count now (`exchanges: 0`); a skip gets its kind from its words, as skipKindOf reads them; an
 * error without a typed cause has its reason as one; a fail or flaky without failures, its reason
 * as its failure; a flaky without its runs, none counted.
 */
/** The cause given an error recorded without one: its reason is all it says. */
export const UNRECORDED_CAUSE = 'UNRECORDED_CAUSE';

export function upgradedResult(loose: LooseResult): CheckResult {
  // Each verdict gets what it carries and nothing another verdict's result left on it (a pass's `failures: []`).
  const { skipKind, cause, failures, handedTo, ...r } = loose;
  const reason = r.reason ?? '';
  switch (r.verdict) {
    case 'pass':
      return { ...r, verdict: 'pass', judged: r.judged ?? { exchanges: 0 } };
    case 'fail': {
      const [first, ...rest] = failures ?? [];
      return { ...r, verdict: 'fail', failures: first === undefined ? [{ message: reason || 'failed (the record names no failure)' }] : [first, ...rest] };
    }
    case 'skip':
      return { ...r, verdict: 'skip', reason, skipKind: skipKindOf({ verdict: 'skip', reason, skipKind }) ?? 'not-applicable', ...(handedTo ? { handedTo } : {}) };
    case 'error':
      return { ...r, verdict: 'error', reason, cause: cause ?? { code: UNRECORDED_CAUSE, what: reason } };
    case 'flaky':
      return { ...r, verdict: 'flaky', reason, repeat: r.repeat ?? { runs: 0, passes: 0, fails: 0, passAtK: {}, passHatK: {} }, ...(failures ? { failures } : {}) };
    case 'unsupported':
      return { ...r, verdict: 'unsupported', reason };
  }
}
