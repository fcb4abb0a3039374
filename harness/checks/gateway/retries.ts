import type { Spec } from '#harness/spec/model.ts';
import type { Check } from '../define.ts';
import { inconclusive } from '../support/cooperation.ts';
import { handOffOnModel } from '../support/handoff.ts';
import { failure, outcomeOf, pass, skip } from '../support/outcome.ts';
import { asked, refusedRequest } from './chatCases.ts';
import { faultsPossible, gatewayCheck, grade, isStatus } from './gatewayCheck.ts';
import { judgedThrough } from './pair.ts';

/** What a gateway asks the upstream again after a refusal: a 429 waited out, or passed on with its Retry-After; a 4xx never resent. */
export function retryChecks(spec: Spec): Check[] {
  return [
    gatewayCheck({
      id: 'gateway.error.retry-after-passed-on',
      title: "an upstream 429's Retry-After reaches the client, or the gateway waits it out before asking again",
      ...grade.advised,
      specRefs: ['errors.retry'],
      async run(ctx) {
        const why = faultsPossible(ctx);
        if (why !== undefined) return skip(why);
        const j = await judgedThrough(ctx, { ...asked(ctx, 'retry-after 429'), final: true, upstream: { kind: 'status', status: 429, times: 1 } });
        if ('why' in j) return inconclusive(j.why);
        const [first, second] = j.pair.upstream;
        const wait = Number(first!.response.headers['retry-after']);
        if (first!.response.status !== 429 || !Number.isFinite(wait)) return inconclusive(`the upstream's first answer was HTTP ${first!.response.status}${Number.isFinite(wait) ? '' : ' without Retry-After'}, not the 429 asked of it`);
        const { res } = j.pair;
        if (res.status === 429) {
          const told = Number(res.headers['retry-after']);
          if (!Number.isFinite(told)) return outcomeOf([failure(`the upstream's 429 said Retry-After: ${wait}; the client's 429 carries no Retry-After`, res, { defect: { kind: 'changed', path: 'headers.retry-after', change: 'dropped', atUpstream: String(wait), what: `Retry-After ${wait} dropped from a 429` } })]);
          return told >= wait ? pass(`the 429 reached the client with Retry-After: ${told}`, 1) : outcomeOf([failure(`the upstream said Retry-After: ${wait}; the client was told ${told}`, res, { defect: { kind: 'changed', path: 'headers.retry-after', change: 'replaced', atUpstream: String(wait), atClient: String(told), what: `Retry-After ${wait} shortened to ${told}` } })]);
        }
        if (second === undefined) return handOffOnModel('gateway.error.status-passed-on', failure(`the client was told HTTP ${res.status} for the upstream's 429 without the gateway asking again`, res, { defect: { kind: 'changed', path: 'status', change: 'replaced', atUpstream: '429', atClient: String(res.status), what: `HTTP 429 passed on as ${res.status}` } }));
        const waited = second.at - first!.at;
        // The clock of one process, milliseconds apart: a few are the scheduler's, not the gateway's.
        return waited >= wait * 1000 - 50 ? pass(`the gateway asked again after ${waited} ms, Retry-After being ${wait} s`, 1) : outcomeOf([failure(`the gateway asked the upstream again ${waited} ms after a 429 whose Retry-After said ${wait} s (the retry guidance: read Retry-After first)`, res, { defect: { kind: 'value', what: `retried ${waited} ms after Retry-After: ${wait}`, path: 'retry' } })]);
      },
    }),
    gatewayCheck({
      id: 'gateway.traffic.no-4xx-resent',
      title: 'a request the upstream refused with a 4xx other than 429 is not sent to it again',
      ...grade.advised,
      specRefs: ['errors.retry'],
      async run(ctx) {
        const j = await judgedThrough(ctx, refusedRequest(spec, ctx));
        if ('why' in j) return inconclusive(j.why);
        const refused = j.pair.upstream.filter((e) => isStatus(e.response.status, 400) && e.response.status !== 429);
        if (refused.length === 0) return inconclusive(`the upstream did not refuse the request (HTTP ${j.pair.upstream.map((e) => e.response.status).join(', ')}), so what the gateway does with a refusal cannot be seen`);
        const n = j.pair.upstream.length;
        return n > 1
          ? outcomeOf([failure(`the upstream answered HTTP ${refused[0]!.response.status} and the gateway sent the same request ${n} times (the retry guidance names 429, 503 and 500 only); each counts against the rate limit`, j.pair.res, { defect: { kind: 'value', what: `a ${refused[0]!.response.status} sent upstream ${n} times`, path: 'traffic' } })])
          : pass(`HTTP ${refused[0]!.response.status}, sent upstream once`, 1);
      },
    }),
  ];
}
