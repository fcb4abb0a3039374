import { describe, expect, test } from 'vitest';
import type { Exchange } from '#harness/core/exchange.ts';
import { exchangeLine } from './evidenceText.ts';

const request = { method: 'POST', url: 'http://127.0.0.1:1/chat/completions', headers: {} };

describe('exchangeLine', () => {
  test('says what broke: no response at all, or a response whose body could not be read', () => {
    const refused: Exchange = { request, attempts: 1, error: { code: 'HARNESS_CONNECTION_REFUSED', message: 'connection refused' } };
    expect(exchangeLine(refused)).toBe('POST http://127.0.0.1:1/chat/completions → no response: HARNESS_CONNECTION_REFUSED: connection refused');
    const unreadable: Exchange = { request, attempts: 1, response: { status: 200, headers: {}, durationMs: 3 }, error: { code: 'INVALID_UTF8', message: 'byte 0xC3 at offset 16 is not UTF-8' } };
    expect(exchangeLine(unreadable)).toBe('POST http://127.0.0.1:1/chat/completions → 200 (3 ms), then INVALID_UTF8: byte 0xC3 at offset 16 is not UTF-8');
    expect(exchangeLine({ ...unreadable, error: undefined })).toBe('POST http://127.0.0.1:1/chat/completions → 200 (3 ms)');
  });
});
