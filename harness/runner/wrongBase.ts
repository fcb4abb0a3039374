import { servedCheckId } from '#harness/checks/endpoint/served.ts';
import type { CheckResult, Failure } from '#harness/core/outcome.ts';
import type { RunRecord } from '#harness/results/index.ts';
import { isUnspecified, type Spec } from '#harness/spec/model.ts';
import { routesOf, validRequest, type Route } from './servedGate.ts';

/**
 * A base URL given with what the harness adds to it itself: the path of a base of the spec
 * (`{base_url}/v1`, `{beta_base_url}`: `/v1`, `/beta`), or a route (`/chat/completions`, with or
 * without such a base before it). Every route the harness derives from it then lies one level too
 * deep (`{base}/v1/models` is asked at `/v1/v1/models`), and its "not served" failures are the base
 * URL's, not the endpoint's. The mistake is made out of the served checks' verdicts, never of words:
 * - a route at its end: no route under the base URL is served;
 * - a base's path at its end: no route of that base is served, while a route of `{base_url}` is
 *   that the same endpoint on that base would be at the base URL to try (`{base}/models` is the
 *   `/v1/models` of the base to try), or no route under the base URL is served at all.
 * A live target only: the embedded emulator's base is the harness's own, and a replay answers as
 * it was recorded.
 */

/** A route a served check judges, with that check's id. */
interface ServedRoute extends Route {
  check: string;
}

/** What the spec's bases and routes put after `{base_url}`, longest first: the endings a base URL must not have. */
function endingsOf(spec: Spec): { path: string; kind: 'base' | 'route'; base: string; placeholder: string }[] {
  const derived = Object.entries(spec.bases).filter(([, b]) => b.relative_to === 'base_url' && !isUnspecified(b.path) && b.path !== '');
  const bases = derived.map(([name, b]) => ({ path: b.path as string, kind: 'base' as const, base: name, placeholder: b.placeholder }));
  const prefixes = [{ base: 'base_url', path: '', placeholder: '{base_url}' }, ...bases];
  const routes = Object.values(spec.endpoints).flatMap((ep) =>
    typeof ep.path !== 'string' ? [] : prefixes.filter((p) => ep.bases.includes(p.base)).map((p) => ({ path: `${p.path}${ep.path as string}`, kind: 'route' as const, base: p.base, placeholder: `${p.placeholder}${ep.path as string}` })),
  );
  return [...bases, ...routes].sort((a, b) => b.path.length - a.path.length);
}

/** The served checks of the routes derived from the base URL given (its messages base too, when that lies under it). */
function servedRoutes(spec: Spec, target: RunRecord['target']): ServedRoute[] {
  const underBase = (base: string): boolean => {
    if (base === 'base_url') return true;
    if (base === 'messages_base_url') return target.messagesBaseUrl.startsWith(`${target.baseUrl.replace(/\/+$/, '')}/`);
    const b = spec.bases[base];
    return typeof b?.relative_to === 'string' && underBase(b.relative_to);
  };
  return routesOf(spec).filter((r) => underBase(r.base)).map((r) => ({ ...r, check: servedCheckId(r.endpoint, r.base) }));
}

/** The base URL's mistake, when its results show it; undefined when they do not. */
export function wrongBaseOf(spec: Spec, target: RunRecord['target'], results: readonly CheckResult[]): NonNullable<RunRecord['wrongBase']> | undefined {
  if (target.kind !== 'live') return undefined;
  const url = new URL(target.baseUrl);
  const path = url.pathname.replace(/\/+$/, '');
  const ending = endingsOf(spec).find((e) => path.endsWith(e.path));
  if (ending === undefined) return undefined;
  const verdict = (check: string) => results.find((r) => r.checkId === check)?.verdict;
  const routes = servedRoutes(spec, target).filter((r) => verdict(r.check) === 'pass' || verdict(r.check) === 'fail');
  const notServed = routes.filter((r) => verdict(r.check) === 'fail');
  if (notServed.length === 0) return undefined;
  const noneServed = notServed.length === routes.length;
  // The same endpoint on the base that ends the URL, served at {base_url}: the route the base to try would serve.
  const oneLevelDeep = ending.kind === 'base' && routes.filter((r) => r.base === ending.base).every((r) => verdict(r.check) === 'fail') && routes.some((r) => r.base === 'base_url' && verdict(r.check) === 'pass' && notServed.some((n) => n.base === ending.base && n.endpoint === r.endpoint));
  if (!noneServed && !oneLevelDeep) return undefined;
  const tryBaseUrl = `${url.origin}${path.slice(0, path.length - ending.path.length)}${url.search}`;
  const asked = notServed.map((r) => results.find((x) => x.checkId === r.check)?.failures?.[0]?.evidence?.request.url).find((u) => u !== undefined);
  const what = ending.kind === 'base' ? `${ending.path}, which the harness adds itself (${ending.placeholder})` : `the route ${ending.path} (${ending.placeholder}), which the harness adds itself`;
  const message = `the base URL ${target.baseUrl} ends in ${what}: try --base-url ${tryBaseUrl}. The ${notServed.length === 1 ? 'route' : `${notServed.length} routes`} not served under it${asked ? ` (asked at ${asked}${notServed.length > 1 ? ' and the like' : ''})` : ''} ${notServed.length === 1 ? 'is' : 'are'} what that caused, not defects of the endpoint`;
  return { ending: ending.path, kind: ending.kind, tryBaseUrl, checks: notServed.map((r) => r.check), message };
}

/**
 * The results with the routes the wrong base made unreachable said to be its doing: each such
 * served check's failure is the wrong base (one cause for all of them: results/causes.ts groups them
 * by it), its evidence kept.
 */
export function blamedOnTheBase(results: readonly CheckResult[], wrong: NonNullable<RunRecord['wrongBase']>): CheckResult[] {
  const what = `not served under a base URL ending in ${wrong.ending}: try --base-url ${wrong.tryBaseUrl}`;
  return results.map((r) => {
    if (r.verdict !== 'fail' || !wrong.checks.includes(r.checkId)) return r;
    const blamed = (f: Failure): Failure => ({ ...f, message: `${f.message}; asked at ${f.evidence?.request.url ?? 'a URL'} because the base URL ends in ${wrong.ending}: what the base URL caused, not the endpoint (try --base-url ${wrong.tryBaseUrl})`, defect: { kind: 'value', what } });
    const [first, ...rest] = r.failures;
    const failures: [Failure, ...Failure[]] = [blamed(first), ...rest.map(blamed)];
    return { ...r, failures };
  });
}

/** How the base to try is asked: a request's status, or undefined where none came (a reset, a timeout). */
export type AskStatus = (method: string, url: string, body: unknown) => Promise<number | undefined>;

/**
 * Whether the base to try serves what the base URL given did: the first route of `{base_url}` served
 * there, asked once at the base to try (`{try}/models`). The mistake is the user's only where it
 * does. An endpoint that serves its routes only below `/v1` (claude-code-router: `/v1/chat/completions`,
 * nothing at the root) looks, from the base URL `http://host/v1`, just as a base URL one level too
 * deep does: there the routes not served are its own, and the base to try would be wrong.
 */
export async function baseToTryServes(spec: Spec, target: RunRecord['target'], results: readonly CheckResult[], wrong: NonNullable<RunRecord['wrongBase']>, model: string, ask: AskStatus): Promise<boolean> {
  const served = servedRoutes(spec, target).filter((r) => r.base === 'base_url' && results.some((x) => x.checkId === r.check && x.verdict === 'pass'));
  const route = served.find((r) => r.method === 'GET') ?? served[0];
  // No route served at all (the base URL ends in a route): nothing to compare, the served checks say it.
  if (route === undefined) return true;
  const status = await ask(route.method, `${wrong.tryBaseUrl.replace(/\/+$/, '')}${route.path}`, validRequest(route, model).body);
  return status !== undefined && status >= 200 && status < 300;
}
