import { describe, expect, test } from 'vitest';
import { marked, markerFor } from '#harness/core/marker.ts';
import { ExchangeGroups } from './exchangeGroups.ts';
import { canonicalBody, type FixtureExchange } from './fixtureFormat.ts';
import type { RequestKey } from './requestKey.ts';

/**
 * A request salted anew in a gateway run (the cache checks' salt) carries a marker of its own too:
 * the replay's alike match compares the bodies without their markers, or it would find the
 * recording's answer too unlike (found on Portkey's recording: caching.short-prompt.never-hits).
 */
const body = (salt: string) => ({ model: 'svc-v4-flash', messages: [{ role: 'user', content: `Say hello. ${salt}` }], max_tokens: 16 });
const markedBody = (salt: string) => {
  const b = body(salt);
  return marked(b, markerFor(canonicalBody({ body: b }), 0))!;
};

function recorded(b: unknown): FixtureExchange {
  return { key: { method: 'POST', path: '/chat/completions', secret: 0, bodyHash: 'recorded' }, request: { method: 'POST', path: '/chat/completions', headers: {}, body: b }, response: { status: 200, headers: {} } };
}
function asked(b: unknown): RequestKey {
  return { method: 'POST', path: '/chat/completions', secret: 0, bodyHash: 'asked', auth: 'bearer', canonical: canonicalBody({ body: b }), model: 'svc-v4-flash' } as RequestKey;
}

describe('the alike match of a replay', () => {
  test('a marked body salted anew answers from the recording of the same request', () => {
    const fx = recorded(markedBody('salt-1764374400123'));
    const groups = new ExchangeGroups([fx], { fallback: true });
    expect(groups.fallsBackTo(asked(markedBody('salt-1764460800456')), fx)).toBe(true);
  });

  test('another request, marked or not, does not', () => {
    const fx = recorded(markedBody('salt-1'));
    const groups = new ExchangeGroups([fx], { fallback: true });
    expect(groups.fallsBackTo(asked({ model: 'svc-v4-flash', messages: [{ role: 'user', content: 'Write a long poem about the sea and every creature in it, in ten stanzas.' }], max_tokens: 16 }), fx)).toBe(false);
  });
});

describe('a request without the key, in a gateway run', () => {
  /** The same body sent with no key, as its `occurrence`-th request with that body: more in flight reorders them, and the marker with it. */
  const keyless = (occurrence: number) => {
    const b = body('');
    return marked(b, markerFor(canonicalBody({ body: b }), occurrence))!;
  };
  const recordedKeyless = (b: unknown, auth: 'none' | 'malformed'): FixtureExchange => ({ key: { method: 'POST', path: '/chat/completions', secret: null, bodyHash: `recorded-${auth}`, auth }, request: { method: 'POST', path: '/chat/completions', headers: {}, body: b }, response: { status: 401, headers: {} } });
  const askedKeyless = (b: unknown, auth: 'none' | 'malformed'): RequestKey => ({ method: 'POST', path: '/chat/completions', secret: null, bodyHash: 'asked', auth, canonical: canonicalBody({ body: b }), model: 'svc-v4-flash' }) as RequestKey;

  test('answers from the recording of its own form of credentials, whatever its marker; never from another form\'s', () => {
    const none = recordedKeyless(keyless(1), 'none');
    const malformed = recordedKeyless(keyless(3), 'malformed');
    const groups = new ExchangeGroups([none, malformed], { fallback: true });
    const asked = askedKeyless(keyless(2), 'malformed');
    expect(groups.fallsBackTo(asked, malformed)).toBe(true);
    expect(groups.fallsBackTo(asked, none)).toBe(false);
  });
});
