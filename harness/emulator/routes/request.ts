import type { EmulatorContext } from '../context.ts';
import type { Refusal } from '../http/refusal.ts';
import { isRecord } from '#harness/core/isRecord.ts';
import { unmarked } from '#harness/core/marker.ts';

/** What every route gets: the parsed request, the base it came in on, and the caller's key. */
export interface RouteInput {
  ctx: EmulatorContext;
  req: Request;
  url: URL;
  /** Key of spec.bases the request was addressed to. */
  base: string;
  key: string;
}

export type JsonBody = { ok: true; value: unknown } | { ok: false; refusal: Refusal };

/** The body as JSON, or the refusal the spec names for a body that is not JSON. */
export async function readJson(input: RouteInput): Promise<JsonBody> {
  const text = await input.req.text();
  try {
    // A harness judging a gateway marks its requests (core/marker.ts): answered as if unmarked, so
    // that what the gateway passes on is answered as the service would answer the client's request.
    return { ok: true, value: unmarked(JSON.parse(text) as unknown) };
  } catch {
    const { spec } = input.ctx;
    if (input.ctx.fault('invalid-json-500')) return { ok: false, refusal: { status: 500, message: 'internal error', type: 'server_error', code: 'internal_error', param: null } };
    const rule = spec.rules.find((r) => r.id === 'chat.invalid-json');
    const status = rule?.expect.status ?? rule?.expect.status_any_of?.[0];
    if (status === undefined) throw new Error('spec has no status for rule chat.invalid-json');
    return { ok: false, refusal: { status, message: 'the request body is not valid JSON', type: 'invalid_request_error', code: 'invalid_json', param: null } };
  }
}

export { isRecord };
