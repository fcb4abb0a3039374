import { get } from '../support/body.ts';

/** The request exactly as sent, as one line of JSON: a failure message quotes it whole. */
export function requestText(body: unknown): string {
  return JSON.stringify(body);
}

/** ` (error: <message>)` from an error envelope, cut short; empty when the body carries none. */
export function errorText(body: unknown): string {
  const message = get(body, 'error', 'message') ?? get(body, 'message');
  if (typeof message !== 'string' || message === '') return '';
  return ` (error: ${message.length > 160 ? `${message.slice(0, 157)}...` : message})`;
}
