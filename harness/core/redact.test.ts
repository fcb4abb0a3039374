import { describe, expect, test } from 'vitest';
import { curlOf } from './curl.ts';
import { REDACTED, redactHeaders, redactText, redactValue } from './redact.ts';

const KEY = 'sk-canary-0123456789abcdef';

describe('redaction', () => {
  test('removes a secret from text, also JSON-escaped and URL-encoded forms', () => {
    expect(redactText(`key ${KEY} and ${encodeURIComponent(KEY)}`, [KEY])).toBe(`key ${REDACTED} and ${REDACTED}`);
  });
  test('removes a secret written in base64 or base64url, alone or inside a longer base64 text', () => {
    const b64 = Buffer.from(KEY).toString('base64');
    expect(redactText(`x ${b64} y`, [KEY])).toBe(`x ${REDACTED} y`);
    expect(redactText(`x ${b64.replace(/=+$/, '')} y`, [KEY])).toBe(`x ${REDACTED} y`);
    expect(redactText(`x ${Buffer.from(KEY).toString('base64url')} y`, [KEY])).toBe(`x ${REDACTED} y`);
    // A Basic credential: user:key encoded together, the key starting at each of the three alignments.
    for (const user of ['u', 'us', 'use']) {
      const out = redactText(`Basic ${Buffer.from(`${user}:${KEY}`).toString('base64')}`, [KEY]);
      expect(out).toContain(REDACTED);
      // Only the few characters that the neighbouring bytes share with the key stay.
      expect(out.replace(REDACTED, '').length, out).toBeLessThanOrEqual('Basic '.length + 12);
    }
    expect(redactText('aGVsbG8gd29ybGQ=', [KEY])).toBe('aGVsbG8gd29ybGQ=');
  });
  test('removes a secret from every string of a value, keys included', () => {
    expect(JSON.stringify(redactValue({ [KEY]: [`x${KEY}`], n: 1 }, [KEY]))).not.toContain(KEY);
  });
  test('a value holding no secret is handed back as it is; one holding a secret is a redacted copy, the original untouched', () => {
    const clean = { a: ['x'], n: 1 };
    expect(redactValue(clean, [KEY])).toBe(clean);
    const dirty = { a: [`x${KEY}`] };
    const redacted = redactValue(dirty, [KEY]);
    expect(redacted).not.toBe(dirty);
    expect(redacted).toEqual({ a: [`x${REDACTED}`] });
    expect(dirty.a[0]).toBe(`x${KEY}`);
  });
  test('replaces credential headers whatever their case, and secrets in others', () => {
    expect(redactHeaders({ Authorization: `Bearer ${KEY}`, 'X-Api-Key': KEY, 'x-echo': KEY, accept: 'json' }, [KEY])).toEqual({
      Authorization: `Bearer ${REDACTED}`,
      'X-Api-Key': REDACTED,
      'x-echo': REDACTED,
      accept: 'json',
    });
  });
});

describe('a credential the harness made up', () => {
  test('is kept, so the wrong-key reproducer replays the wrong key', () => {
    const headers = redactHeaders({ authorization: 'Bearer sk-wrong-123456' }, [KEY]);
    expect(headers.authorization).toBe('Bearer sk-wrong-123456');
    expect(curlOf({ method: 'GET', url: 'http://h/models', headers })).toContain("'authorization: Bearer sk-wrong-123456'");
  });
  test('with no secrets known, every credential header is redacted', () => {
    expect(redactHeaders({ Authorization: 'Bearer anything' })).toEqual({ Authorization: `Bearer ${REDACTED}` });
  });
});

describe('curlOf', () => {
  test('reads the key from the environment, never holds it', () => {
    const curl = curlOf({ method: 'POST', url: 'http://h/chat/completions', headers: redactHeaders({ authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, [KEY]), body: { a: "it's" } }, 'MY_KEY');
    expect(curl).not.toContain(KEY);
    expect(curl).toContain('"Authorization: Bearer ${MY_KEY}"');
    expect(curl).toContain(`--data-raw '{"a":"it'\\''s"}'`);
  });
});
