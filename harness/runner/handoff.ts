import type { CheckResult, Failure, HandedTo } from '#harness/core/outcome.ts';
import type { RecordedRequest } from '#harness/core/exchange.ts';
import { deepEqual } from '#harness/core/deepEqual.ts';
import { causeKey, defectOf, headlineOf } from '#harness/results/causes.ts';
import { isFailing } from '#harness/results/failing.ts';

/** The suffix of a rule's streamed twin (checks/rule/rules.ts). */
const STREAMED = '.streamed';

/**
 * One defect, one failure, settled once every check has ended. A check that meets a defect another
 * check judges hands it over (`Failure.ownedBy`, checks/support/handoff.ts): its result is a
 * failure whose every failure names its owner. Where each owner failed on it, the result is a skip
 * naming them as data (`handedTo`): the defect is reported there, once. Where an owner did not (it
 * passed, judged another answer that was fine, or is not in this run: another shard, `--only`),
 * nothing else reports the defect, and the failure stands as this check's own, at its severity.
 *
 * Where the owner must have failed (`Failure.ownedOn`):
 * - `answer`: on the same model, on that answer (the same request) or with the same defect (its
 *   cause key: the same violation at the same place);
 * - `run`: anywhere in the run (a route-level block: the served check runs on one model); the
 *   result that stands is `blocked`;
 * - absent: anywhere on the same model (a parameter's acceptance, judged on the owner's requests).
 *
 * A rule's check and its streamed twin (`<id>.streamed`) judge the same rule: either failing reports
 * it. An owner that itself handed the defect on failed on it all the same: the chain ends where it
 * is reported (its own settling says where).
 */
export function settleHandoffs(results: readonly CheckResult[]): CheckResult[] {
  const failing = results.filter((r) => isFailing(r.verdict));
  const owned = (f: Failure, model: string): boolean =>
    failing.some((o) => {
      if (o.checkId !== f.ownedBy && o.checkId !== `${f.ownedBy}${STREAMED}`) return false;
      if (f.ownedOn === 'run') return true;
      if (o.model !== model) return false;
      if (f.ownedOn !== 'answer') return true;
      const key = causeKey(f);
      return (o.failures ?? []).some((g) => causeKey(g) === key || sameRequest(g.evidence?.request, f.evidence?.request));
    });
  return results.map((r) => {
    const failures = r.failures ?? [];
    if (r.verdict !== 'fail' || failures.length === 0 || failures.some((f) => f.ownedBy === undefined)) return r;
    if (!failures.every((f) => owned(f, r.model))) return r;
    const { failures: _handed, ...rest } = r;
    const owners = [...new Set(failures.map((f) => f.ownedBy!))];
    const blocked = failures.every((f) => f.ownedOn === 'run');
    return {
      ...rest,
      verdict: 'skip',
      skipKind: blocked ? 'blocked' : 'inconclusive',
      reason: blocked ? failures[0]!.message : `inconclusive: ${failures[0]!.message}; ${owners.join(' and ')} fails on it: one defect, reported there`,
      handedTo: failures.map(handedTo),
    };
  });
}

/** A handed failure as the settled skip names it: the owner, the answer, the defect. */
function handedTo(f: Failure): HandedTo {
  const request = f.evidence?.request;
  return { check: f.ownedBy!, ...(request ? { request: `${request.method} ${request.url}` } : {}), defect: headlineOf(defectOf(f)) };
}

/** The same request: method, URL and body (a shared answer is one request, whoever asked it). */
function sameRequest(a: RecordedRequest | undefined, b: RecordedRequest | undefined): boolean {
  if (a === undefined || b === undefined) return false;
  return a.method === b.method && a.url === b.url && deepEqual(a.body, b.body) && a.rawBody === b.rawBody;
}
