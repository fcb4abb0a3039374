import { isRecord } from '#harness/core/isRecord.ts';
import { isHarnessError } from '#harness/core/errors/index.ts';
import type { CheckResponse } from '../context.ts';

export type Json = Record<string, unknown>;

/** The checks' name for the one record guard (core/isRecord.ts). */
export const isObject: (value: unknown) => value is Json = isRecord;

/** Path into a JSON value: `get(body, 'choices', 0, 'message')`. */
export function get(value: unknown, ...path: (string | number)[]): unknown {
  let v = value;
  for (const p of path) {
    if (typeof p === 'number' ? !Array.isArray(v) : !isObject(v)) return undefined;
    v = (v as Record<string | number, unknown>)[p];
  }
  return v;
}

/** A body read as JSON: the value, or why there is none (`body` is then undefined, for destructuring). */
export type JsonRead = { ok: true; body: unknown } | { ok: false; body?: undefined; why: string };

/**
 * The one way a check reads a JSON body, through the response's own JSON reading, which refuses
 * what JSON text cannot be: bytes that are not UTF-8, a body cut at the harness's size cap, text
 * that does not parse (the cause also lands in `exchange.error`, the evidence). That is the
 * endpoint's doing: `why` says it, for the check's failure. A harness error (reset, timeout) is not
 * about the body's form: it is thrown on, and the check ends in error.
 */
export async function readJson(res: CheckResponse): Promise<JsonRead> {
  try {
    return { ok: true, body: await res.json() };
  } catch (err) {
    if (isHarnessError(err)) throw err;
    return { ok: false, why: (err as Error).message };
  }
}
