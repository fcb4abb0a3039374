import { HttpHandler } from 'msw';
import { ExchangeGroups } from './exchangeGroups.ts';
import type { Fixture, FixtureExchange, FixtureKey } from './fixtureFormat.ts';
import { recordedResponse } from './recordedResponse.ts';
import { requestKeyOf, type RequestKey } from './requestKey.ts';

export interface HandlersOfOptions {
  /** Send SSE events at once instead of with their recorded spacing. */
  fast?: boolean;
  /** Where the requests go, as the recording's paths are relative to it; default: any origin, paths from its root. */
  baseUrl?: string;
}

/**
 * A recording as MSW handlers, one per recorded exchange: its predicate says whether a request is
 * the one recorded (method, path with query, key index from REPLAY_KEYS, canonical body, auth form)
 * and its turn is due (exchangeGroups.ts has the rules), its resolver sends the recorded response.
 * A request nothing was recorded for matches no handler, so it goes to `onUnhandledRequest`
 * (`setupServer(...handlersOf(recording))`), or `getResponse` gives undefined.
 * A set built from captures (`coverage: 'partial'`) answers exact matches only.
 */
export function handlersOf(recording: Fixture, options: HandlersOfOptions = {}): HttpHandler[] {
  return recordedHandlers(recording, options).map((r) => r.handler);
}

/** A handler of `handlersOf` with the key its exchange was recorded under, so a server can index them. */
export interface RecordedHandler {
  key: FixtureKey;
  handler: HttpHandler;
}

/** `handlersOf`'s handlers, in the same order, each with its exchange's key. */
export function recordedHandlers(recording: Fixture, options: HandlersOfOptions = {}): RecordedHandler[] {
  const groups = new ExchangeGroups(recording.exchanges, { fallback: recording.manifest.coverage !== 'partial' });
  const fast = options.fast === true;
  // Exchanges keyed by an auth form come first: a request carrying its credential that way answers from them.
  const ordered = [...recording.exchanges.filter((fx) => fx.key.auth !== undefined), ...recording.exchanges.filter((fx) => fx.key.auth === undefined)];
  return ordered.map((fx) => ({
    key: fx.key,
    // What http.get / http.post build, for whichever method was recorded.
    handler: new HttpHandler(
      fx.key.method,
      async ({ request }) => request.method === fx.key.method && answers(fx, await requestKeyOf(request, options.baseUrl), groups),
      () => recordedResponse(fx, fast),
    ),
  }));
}

function answers(fx: FixtureExchange, req: RequestKey, groups: ExchangeGroups): boolean {
  const { key } = fx;
  if (req.path !== key.path || req.secret !== key.secret) return false;
  const exact = req.bodyHash === key.bodyHash && (key.auth === undefined || key.auth === req.auth);
  return (exact || groups.fallsBackTo(req, fx)) && groups.claim(fx);
}
