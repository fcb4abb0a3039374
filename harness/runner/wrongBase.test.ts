import { describe, expect, test } from 'vitest';
import { resultOf } from '#harness/testing/results.ts';
import { servedCheckId } from '#harness/checks/endpoint/served.ts';
import type { CheckResult, Verdict } from '#harness/core/outcome.ts';
import { causesOf, type RunRecord } from '#harness/results/index.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { sampleRecord } from '#harness/testing/sampleRecord.ts';
import { routesOf } from './servedGate.ts';
import { blamedOnTheBase, wrongBaseOf } from './wrongBase.ts';

const { spec } = loadSpec();
const ROUTES = routesOf(spec);

/** The served checks' results as a target gave them: `served(route)` says which routes answer. */
function servedResults(baseUrl: string, served: (r: (typeof ROUTES)[number]) => boolean): CheckResult[] {
  const template = sampleRecord().results[0]!;
  return ROUTES.map((r) => {
    const verdict: Verdict = served(r) ? 'pass' : 'fail';
    const url = `${baseUrl}${r.base === 'v1' ? '/v1' : r.base === 'beta' ? '/beta' : r.base === 'messages_base_url' ? '/anthropic' : ''}${r.path}`;
    return resultOf({ ...template, checkId: servedCheckId(r.endpoint, r.base), verdict, ...(verdict === 'fail' ? { failures: [{ message: `a valid request to ${r.path} was answered HTTP 404, as a path that does not exist is: the endpoint is not served there`, evidence: { request: { method: r.method, url, headers: {} }, response: { status: 404, headers: {}, durationMs: 1 }, attempts: 1 } }] } : {}) });
  });
}

const live = (baseUrl: string): RunRecord['target'] => ({ kind: 'live', baseUrl, messagesBaseUrl: `${baseUrl}/anthropic` });

describe('a base URL given with what the harness adds itself', () => {
  test('ending in /v1, the /v1 routes not served while the same endpoints at the base are: the base to try, every route under it blamed on it', () => {
    const base = 'http://127.0.0.1:8080/v1';
    const results = servedResults(base, (r) => r.base === 'base_url');
    const wrong = wrongBaseOf(spec, live(base), results)!;
    expect(wrong).toMatchObject({ ending: '/v1', kind: 'base', tryBaseUrl: 'http://127.0.0.1:8080' });
    expect(wrong.checks.sort()).toEqual(results.filter((r) => r.verdict === 'fail').map((r) => r.checkId).sort());
    expect(wrong.message).toMatch(/^the base URL http:\/\/127\.0\.0\.1:8080\/v1 ends in \/v1, which the harness adds itself \(\{base_url\}\/v1\): try --base-url http:\/\/127\.0\.0\.1:8080\. The \d+ routes not served under it \(asked at http:\/\/127\.0\.0\.1:8080\/v1\/\S+ and the like\) are what that caused, not defects of the endpoint$/);
    // One cause for them all, the base URL's; the evidence kept.
    const blamed = blamedOnTheBase(results, wrong);
    const causes = causesOf(blamed);
    expect(causes).toHaveLength(1);
    expect(causes[0]!.message).toBe('not served under a base URL ending in /v1: try --base-url http://127.0.0.1:8080');
    expect(blamed.filter((r) => r.verdict === 'fail').every((r) => r.failures![0]!.evidence?.response?.status === 404 && r.failures![0]!.message.includes('what the base URL caused, not the endpoint'))).toBe(true);
  });

  test('ending in a route: nothing under it is served; the base to try is what comes before it', () => {
    for (const [base, tryBase] of [['https://api.example.com/chat/completions', 'https://api.example.com'], ['https://api.example.com/v1/chat/completions', 'https://api.example.com'], ['https://gw.example.com/svc/models/', 'https://gw.example.com/svc']] as const) {
      const wrong = wrongBaseOf(spec, live(base), servedResults(base, () => false));
      expect(wrong, base).toMatchObject({ kind: 'route', tryBaseUrl: tryBase });
      expect(wrong!.message).toContain(`try --base-url ${tryBase}.`);
    }
  });

  test('no mistake where the results do not show one', () => {
    // Everything served at /v1: whatever serves there serves every route.
    expect(wrongBaseOf(spec, live('http://h/v1'), servedResults('http://h/v1', () => true))).toBeUndefined();
    // A base URL without such an ending: its routes not served are the endpoint's.
    expect(wrongBaseOf(spec, live('http://h'), servedResults('http://h', (r) => r.base !== 'beta'))).toBeUndefined();
    // Ending in a route, but a route is served under it: not one level too deep.
    expect(wrongBaseOf(spec, live('http://h/models'), servedResults('http://h/models', (r) => r.endpoint === 'chat_completions' && r.base === 'base_url'))).toBeUndefined();
    // Ending in /v1, some /v1 route served: the /v1 routes are not all one level too deep.
    expect(wrongBaseOf(spec, live('http://h/v1'), servedResults('http://h/v1', (r) => r.base === 'base_url' || (r.base === 'v1' && r.endpoint === 'list_models')))).toBeUndefined();
    // The embedded emulator and a replay: their base is the harness's own.
    expect(wrongBaseOf(spec, { kind: 'fixtures', baseUrl: 'http://h/v1', messagesBaseUrl: 'http://h/v1/anthropic' }, servedResults('http://h/v1', (r) => r.base === 'base_url'))).toBeUndefined();
  });
});
