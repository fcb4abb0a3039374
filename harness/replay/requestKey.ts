import { authFormOf, bodyHash, canonicalBody, modelOf, relativePath, type AuthForm, type FixtureKey } from './fixtureFormat.ts';

/** The keys a replayed run sends: index i stands for the recording's secret i. */
export const REPLAY_KEYS = ['sk-replay-key-0', 'sk-replay-key-1'] as const;

/** A request as a fixture key sees it; `canonical` is its body in the form it is matched by. */
export interface RequestKey extends Omit<FixtureKey, 'path' | 'auth'> {
  /** Relative to the base, query included; undefined when the request is not under it. */
  path: string | undefined;
  auth: AuthForm;
  canonical: string;
  /** The body's `model`, when it names one: an alike match never crosses it (exchangeGroups.ts). */
  model: string | undefined;
}

const keys = new Map<string, WeakMap<Request, Promise<RequestKey>>>();

/**
 * The key of a request, computed once per request and base: every handler of a recording, and the
 * replay server indexing them, ask for it. The path is relative to `baseUrl` when given, else to the
 * request's origin.
 */
export function requestKeyOf(request: Request, baseUrl?: string): Promise<RequestKey> {
  let seen = keys.get(baseUrl ?? '');
  if (!seen) {
    seen = new WeakMap();
    keys.set(baseUrl ?? '', seen);
  }
  let key = seen.get(request);
  if (!key) {
    key = keyOf(request, baseUrl);
    seen.set(request, key);
  }
  return key;
}

async function keyOf(request: Request, baseUrl: string | undefined): Promise<RequestKey> {
  const url = new URL(request.url);
  const raw = await request.clone().text();
  let canonical = '';
  let body: unknown;
  if (raw !== '') {
    try {
      body = JSON.parse(raw) as unknown;
      canonical = canonicalBody({ body });
    } catch {
      canonical = canonicalBody({ rawBody: raw });
    }
  }
  const credentials = `${request.headers.get('authorization') ?? ''} ${request.headers.get('x-api-key') ?? ''}`;
  const secret = REPLAY_KEYS.findIndex((k) => credentials.includes(k));
  return {
    method: request.method,
    path: baseUrl === undefined ? `${url.pathname}${url.search}` : relativePath(request.url, baseUrl),
    secret: secret >= 0 ? secret : null,
    auth: authForm(request),
    bodyHash: bodyHash(canonical),
    canonical,
    model: modelOf(body),
  };
}

const authForm = (request: Request): AuthForm => authFormOf((name) => request.headers.get(name));
