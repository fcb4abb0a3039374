import type { Violation } from '#harness/derive/validators/index.ts';
import { get } from './body.ts';

/**
 * What a body says when it is the spec's error envelope (`error_envelope`, met at must), in one
 * line: `rate_limit_error rate_limit_exceeded: "too many requests"`; undefined for any other body.
 * A success (2xx) carrying one is a refusal sent as a success: every text about it names it so.
 */
export function errorEnvelopeSaid(judge: (objectName: string, body: unknown) => Violation[], body: unknown): string | undefined {
  if (body === undefined || body === null || typeof body !== 'object' || judge('error_envelope', body).some((v) => v.level === 'must')) return undefined;
  const words = (v: unknown) => (typeof v === 'string' && v !== '' ? [v] : []);
  const message = get(body, 'error', 'message');
  const text = typeof message === 'string' ? JSON.stringify(message.length > 120 ? `${message.slice(0, 117)}...` : message) : '';
  return [[...words(get(body, 'error', 'type')), ...words(get(body, 'error', 'code'))].join(' '), text].filter((p) => p !== '').join(': ');
}

/** A body's text as JSON, when it is JSON: what a 200 sent in place of a stream. */
export function jsonOf(text: string | undefined): unknown {
  if (text === undefined || text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
