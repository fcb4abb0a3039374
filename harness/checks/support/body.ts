import { isRecord } from '#harness/core/isRecord.ts';
import { isHarnessError } from '#harness/core/errors/index.ts';
import type { CheckResponse } from '../context.ts';
import { failure } from './outcome.ts';
import type { Failure } from '#harness/core/outcome.ts';

export type Json = Record<string, unknown>;

/** The checks' name for the one record guard (core/isRecord.ts). */
export const isObject: (value: unknown) => value is Json = isRecord;

/** The body as a JSON object, or the failure that says why it is not one. */
export async function jsonBody(res: CheckResponse): Promise<{ ok: true; body: Json } | { ok: false; failure: Failure }> {
  let body: unknown;
  try {
    body = await res.json();
  } catch (err) {
    return { ok: false, failure: failure(`the body is not JSON: ${(err as Error).message}`, res) };
  }
  if (!isObject(body)) return { ok: false, failure: failure('the body is JSON but not an object', res) };
  return { ok: true, body };
}

/** Path into a JSON value: `get(body, 'choices', 0, 'message')`. */
export function get(value: unknown, ...path: (string | number)[]): unknown {
  let v = value;
  for (const p of path) {
    if (typeof p === 'number' ? !Array.isArray(v) : !isObject(v)) return undefined;
    v = (v as Record<string | number, unknown>)[p];
  }
  return v;
}

/**
 * The body through the response's own JSON reading, which refuses what JSON text cannot be: bytes
 * that are not UTF-8, a body cut at the harness's size cap, text that does not parse (the cause
 * also lands in `exchange.error`, the evidence). A harness error (reset, timeout) is not about the
 * body's form: it is thrown on, and the check ends in error (jsonBody, above, makes it a failure).
 */
export async function readJson(res: CheckResponse): Promise<{ ok: true; body: unknown } | { ok: false; why: string }> {
  try {
    return { ok: true, body: await res.json() };
  } catch (err) {
    if (isHarnessError(err)) throw err;
    return { ok: false, why: (err as Error).message };
  }
}
