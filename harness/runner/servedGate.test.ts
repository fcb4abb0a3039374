import { describe, expect, test } from 'vitest';
import type { CheckResponse } from '#harness/checks/index.ts';
import type { Exchange } from '#harness/core/exchange.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { MalformedResponseError, type SendRequest } from '#harness/transport/index.ts';
import { ServedGate } from './servedGate.ts';

const { spec } = loadSpec();

/** An answer as the transport gives it, after `attempts` tries. */
function answer(req: SendRequest, status: number, headers: Record<string, string>, text: string, attempts = 1): CheckResponse {
  const exchange: Exchange = { request: { method: req.method, url: req.url, headers: {} }, response: { status, headers, text, durationMs: 1 }, attempts };
  return {
    status,
    headers,
    exchange,
    text: async () => text,
    // As the transport reads JSON: text that does not parse is a MalformedResponseError.
    json: async () => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        throw new MalformedResponseError('MALFORMED_JSON', 'response body is not JSON', exchange, { text });
      }
    },
    events: () => ({ async *[Symbol.asyncIterator]() {} }),
  } as unknown as CheckResponse;
}

function gate(send: (req: SendRequest) => CheckResponse): ServedGate {
  return new ServedGate({ spec, without: [], modelFor: () => 'm', urlOf: (_r, path) => `http://h${path}`, headers: () => ({}), send: async (req) => send(req) });
}

const chat = (g: ServedGate) => g.routes.find((r) => r.endpoint === 'chat_completions' && r.base === 'base_url')!;

describe('whether a route is served', () => {
  test('a web page where the service answers JSON is not the endpoint; `{}` is (its shape is the schema checks\' to judge)', async () => {
    const page = gate((req) => answer(req, 200, { 'content-type': 'text/html' }, '<html>Welcome to nginx!</html>'));
    const v = await page.verdict(chat(page));
    expect(v).toMatchObject({ served: false, why: expect.stringMatching(/answered HTTP 200 with text\/html and a body that is not JSON/) });
    const empty = gate((req) => answer(req, 200, { 'content-type': 'application/json' }, '{}'));
    expect(await empty.verdict(chat(empty))).toMatchObject({ served: true, evidence: [expect.objectContaining({ attempts: 1 })] });
  });

  test('"not now" (503, 429) on every try is evidence neither way: unavailable, naming the status, the attempts and Retry-After', async () => {
    for (const status of spec.errors.retry.statuses) {
      const busy = gate((req) => answer(req, status, { 'content-type': 'application/json', 'retry-after': '30' }, '{"error":{"message":"busy"}}', spec.errors.retry.max_attempts));
      expect(await busy.verdict(chat(busy))).toEqual({
        unavailable: `a valid request to POST {base_url}/chat/completions was answered HTTP ${status} on each of its ${spec.errors.retry.max_attempts} attempts (Retry-After: 30): whether it is served cannot be told`,
        evidence: [expect.objectContaining({ attempts: spec.errors.retry.max_attempts })],
      });
    }
  });
});
