import { canonicalBody, modelOf, type FixtureExchange, type FixtureKey } from './fixtureFormat.ts';
import type { RequestKey } from './requestKey.ts';
import { withoutMarkers } from '#harness/core/marker.ts';

/** A fallback match needs this share of the body in common (prefix + suffix) with the recording. */
const SIMILARITY = 0.8;

interface Group {
  canonical: string;
  /** The model its request named: a fallback never answers another model's request from it. */
  model: string | undefined;
  auth: FixtureKey['auth'];
  size: number;
  served: number;
  /** Answered once already: no longer open to a fallback match. */
  taken: boolean;
}

/**
 * The shared state of a recording's handlers. Exchanges with the same key (method, path with query,
 * key index, body hash, auth form) form a group answered in turn: each once in recording order,
 * then the last again. A request whose body matches nothing recorded (a check's random marker or
 * cache salt) falls back to the group with its method, path, key index and body `model`, no auth
 * form, not yet answered, whose canonical body is most alike (common prefix + suffix >= 80% of the longer one),
 * and keeps that group from then on. Without `fallback` (a set built from captures) a recording
 * answers only the very request it was paired with.
 */
export class ExchangeGroups {
  readonly #groups = new Map<string, Group>();
  readonly #place = new Map<FixtureExchange, { group: Group; index: number }>();
  readonly #aliases = new Map<string, Group>();
  readonly #fallbacks = new WeakMap<RequestKey, Group | null>();
  readonly #fallback: boolean;

  constructor(exchanges: readonly FixtureExchange[], options: { fallback: boolean }) {
    this.#fallback = options.fallback;
    for (const fx of exchanges) {
      const id = keyId(fx.key);
      let group = this.#groups.get(id);
      if (!group) {
        group = { canonical: withoutMarkers(canonicalBody(fx.request)), model: modelOf(fx.request.body), auth: fx.key.auth, size: 0, served: 0, taken: false };
        this.#groups.set(id, group);
      }
      this.#place.set(fx, { group, index: group.size });
      group.size += 1;
    }
  }

  /**
   * Takes `fx`'s turn if it is due, in one synchronous step so that concurrent requests never
   * share an answer: a request walking its group's handlers in order always finds the due one.
   */
  claim(fx: FixtureExchange): boolean {
    const { group, index } = this.#place.get(fx)!;
    if (Math.min(group.served, group.size - 1) !== index) return false;
    group.served += 1;
    group.taken = true;
    return true;
  }

  /** Whether a request with no exact recording answers from `fx`'s group. */
  fallsBackTo(req: RequestKey, fx: FixtureExchange): boolean {
    let group = this.#fallbacks.get(req);
    // Picking a group keeps it for that body, so each request (one key object) picks once.
    if (group === undefined) {
      group = this.#pickFallback(req) ?? null;
      this.#fallbacks.set(req, group);
    }
    return group === this.#place.get(fx)!.group;
  }

  #pickFallback(req: RequestKey): Group | undefined {
    if (!this.#fallback || req.path === undefined) return undefined;
    const own = keyId({ method: req.method, path: req.path, secret: req.secret, bodyHash: req.bodyHash });
    if (this.#groups.has(own) || this.#groups.has(keyId({ method: req.method, path: req.path, secret: req.secret, bodyHash: req.bodyHash, auth: req.auth }))) return undefined;
    const alias = this.#aliases.get(own);
    if (alias) return alias;
    const prefix = keyId({ method: req.method, path: req.path, secret: req.secret, bodyHash: '' });
    let best: { group: Group; score: number } | undefined;
    // A gateway run's marker follows from the body (core/marker.ts): a body salted anew (the cache
    // checks' salt) carries another marker too, which is not what makes it another request.
    const canonical = withoutMarkers(req.canonical);
    for (const [id, group] of this.#groups) {
      // The same route (method, path, key) and the same model: an alike body of another model is another model's answer.
      // A request without the key answers only from its own form of credentials (a malformed key's 401 is not a missing key's):
      // in a gateway run its marker counts the requests with its body before it, which more in flight can reorder.
      if (!id.startsWith(prefix) || group.taken || (group.auth !== undefined && group.auth !== req.auth) || group.model !== req.model) continue;
      const score = similarity(group.canonical, canonical);
      if (score >= SIMILARITY && (best === undefined || score > best.score)) best = { group, score };
    }
    if (best) this.#aliases.set(own, best.group);
    return best?.group;
  }
}

function keyId(key: FixtureKey): string {
  return `${key.method} ${key.path} ${key.secret ?? '-'} ${key.bodyHash}${key.auth ? ` ${key.auth}` : ''}`;
}

function similarity(a: string, b: string): number {
  const longest = Math.max(a.length, b.length);
  if (longest === 0) return 1;
  const shortest = Math.min(a.length, b.length);
  let p = 0;
  while (p < shortest && a[p] === b[p]) p += 1;
  let s = 0;
  while (s < shortest - p && a[a.length - 1 - s] === b[b.length - 1 - s]) s += 1;
  return (p + s) / longest;
}
