import { getResponse, type HttpHandler } from 'msw';
import { serveFetch } from '#harness/core/http/fetchBridge.ts';
import { readFixture, type FixtureManifest } from './fixtureFormat.ts';
import { recordedHandlers } from './handlersOf.ts';
import { notRecorded } from './notRecorded.ts';
import { requestKeyOf, type RequestKey } from './requestKey.ts';

export interface ReplayServer {
  url: string;
  manifest: FixtureManifest;
  close(): Promise<void>;
}

/**
 * A loopback server answering from a recording through its MSW handlers (`getResponse`), so the
 * client's code path is the live one. What no handler answers is the server's unhandled request:
 * it answers NOT_RECORDED_STATUS naming it, marked so the run skips the check as not recorded
 * (notRecorded.ts). Nothing is forwarded anywhere.
 */
export async function startReplayServer(dir: string, options: { fast?: boolean } = {}): Promise<ReplayServer> {
  const recording = readFixture(dir);
  const { manifest } = recording;
  const miss = manifest.coverage === 'partial' ? 'capture' : manifest.checks === undefined ? 'unlisted' : 'listed';
  // MSW asks every handler it is given in turn, a few µs each, and most of a recording shares one
  // route: ask the handlers recorded under the request's own key, then its route's (a fallback
  // match). Only those could answer it, in the same order, so the outcome is the whole list's.
  const byKey = new Map<string, HttpHandler[]>();
  const byRoute = new Map<string, HttpHandler[]>();
  for (const { key, handler } of recordedHandlers(recording, options)) {
    append(byKey, keyIndex(key), handler);
    append(byRoute, routeIndex(key), handler);
  }
  const answer = async (request: Request): Promise<Response> => {
    const key = await requestKeyOf(request);
    return (await getResponse(byKey.get(keyIndex(key)) ?? [], request)) ?? (await getResponse(byRoute.get(routeIndex(key)) ?? [], request)) ?? notRecorded(key, miss);
  };
  const server = await serveFetch(answer, {
    // The endpoint's clock is the recording's: an answer recorded without a Date header is replayed
    // without one (the run then judges by the recording's clock), never with today's.
    sendDate: false,
    failure: (err) => new Response(`replay server error: ${err instanceof Error ? err.message : String(err)}`, { status: 500, headers: { 'content-type': 'text/plain' } }),
  });
  return { url: server.url, manifest: recording.manifest, close: () => server.close() };
}

type Indexed = Pick<RequestKey, 'method' | 'path' | 'secret' | 'bodyHash'>;

function routeIndex(key: Indexed): string {
  return `${key.method} ${key.path ?? ''} ${key.secret ?? '-'}`;
}

function keyIndex(key: Indexed): string {
  return `${routeIndex(key)} ${key.bodyHash}`;
}

function append(map: Map<string, HttpHandler[]>, at: string, handler: HttpHandler): void {
  const list = map.get(at);
  if (list) list.push(handler);
  else map.set(at, [handler]);
}
