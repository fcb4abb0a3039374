import { describe, expect, test } from 'vitest';
import { curlOf } from './curl.ts';
import { headersOf, parseHeader, parseHeaderEnv, secretValues } from './extraHeaders.ts';
import { REDACTED } from './redact.ts';

describe('--header and --header-env', () => {
  test("'Name: value' is a plain header; Name=VAR reads the environment and is a secret", () => {
    const plain = parseHeader('run: --header', 'x-portkey-provider: openai');
    const secret = parseHeaderEnv('run: --header-env', 'x-portkey-api-key=PK', { PK: 'pk-123456' });
    expect(plain).toEqual({ name: 'x-portkey-provider', value: 'openai' });
    expect(secret).toEqual({ name: 'x-portkey-api-key', value: 'pk-123456', env: 'PK' });
    expect(headersOf([plain, secret])).toEqual({ 'x-portkey-provider': 'openai', 'x-portkey-api-key': 'pk-123456' });
    expect(secretValues([plain, secret])).toEqual(['pk-123456']);
  });

  test.each([
    ['no colon', () => parseHeader('run: --header', 'x-route emulator'), /--header: takes 'Name: value'/],
    ['a name that is no token', () => parseHeader('run: --header', 'x route: a'), /is not a header name/],
    ['the key header, which the harness sets', () => parseHeader('run: --header', 'Authorization: Bearer x'), /set by the harness itself/],
    ['an empty variable', () => parseHeaderEnv('run: --header-env', 'x-token=NOPE', {}), /NOPE holds no value for the header x-token/],
    ['no variable', () => parseHeaderEnv('run: --header-env', 'x-token', {}), /takes Name=VAR/],
  ])('%s is a usage error naming the flag', (_what, parse, message) => {
    expect(parse).toThrow(message);
  });

  test('a reproducer reads an env-sourced header back from its variable, and keeps a plain one', () => {
    const curl = curlOf(
      { method: 'GET', url: 'http://127.0.0.1:1/models', headers: { authorization: `Bearer ${REDACTED}`, 'x-route': 'emulator', 'x-route-token': REDACTED } },
      'SVC_API_KEY',
      { 'x-route-token': 'SVC_ROUTE_TOKEN' },
    );
    expect(curl).toBe(`curl -sS -X GET 'http://127.0.0.1:1/models' -H "Authorization: Bearer \${SVC_API_KEY}" -H 'x-route: emulator' -H "x-route-token: \${SVC_ROUTE_TOKEN}"`);
  });
});
