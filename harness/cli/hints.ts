import { causesOf, type RunRecord } from '#harness/results/index.ts';
import { NO_ANSWER } from '#harness/transport/index.ts';

/**
 * What a run's results suggest the user try next, one line each. When most checks of a cell could
 * not be judged for one transport cause (no connection, no answer), the endpoint is down or the
 * base URL is wrong, whatever the checks were about: say it once, with what to check. (A base URL
 * given with what the harness adds itself, `/v1` or a route, is no hint: the record carries it,
 * runner/wrongBase.ts, and the outcome and every report lead with it.)
 */
export function hintsOf(records: readonly RunRecord[]): string[] {
  const hints = new Set<string>();
  for (const r of records) {
    // Routes declared silent say it best: where, why, and what to try; the generic hint would say it again.
    const early = stoppedEarly(r);
    if (early) hints.add(early);
    const top = causesOf(r.results.filter((x) => x.verdict === 'error'))[0];
    if (!early && top && top.code !== undefined && NO_ANSWER.has(top.code) && top.affected.length * 2 > r.results.length) {
      // One line per base URL, however many models: the same server failed them all.
      hints.add(`svc-conformance: ${r.target.baseUrl} gave no answer to most checks (${top.message}): check that the server is running and that --base-url (and the port) is right.`);
    }
  }
  return [...hints];
}

/** Why a cell stopped sending early (routes that stayed silent), in one line with what to try; undefined when it did not. */
function stoppedEarly(r: RunRecord): string | undefined {
  const seen = r.results.flatMap((x) => (x.cause?.declared === undefined ? [] : [x.cause]));
  if (seen.length === 0) return undefined;
  const routes = [...new Set(seen.map((c) => (c.declared!.route === 'endpoint' ? 'every route' : c.declared!.route)))];
  const first = seen[0]!;
  return `svc-conformance: ${r.target.baseUrl}: stopped early: ${seen.length} ${seen.length === 1 ? 'check was' : 'checks were'} not sent to ${routes.join(', ')}, which gave no answer (${first.declared!.grounds}). ${adviceFor(first.code)}`;
}

/** What to try, by what went wrong: bytes that are not HTTP are no sign of slowness, nor a refused connection. */
function adviceFor(code: string): string {
  if (code === 'HARNESS_PROTOCOL') return 'What answers there is not an HTTP server: check that --base-url names the API\'s HTTP(S) address and port.';
  if (code === 'HARNESS_CONNECT') return 'Check that the server is running and that --base-url (and the port) is right.';
  return 'Check that the server is running; if it is only slow, raise --timeout-ms (headers, gaps) or --deadline-ms (a whole body).';
}
