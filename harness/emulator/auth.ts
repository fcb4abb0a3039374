import type { EmulatorContext } from './context.ts';
import { statusRow } from './choices.ts';
import type { Refusal } from './http/refusal.ts';

/** The key a request authenticates with, or the 401 it gets. */
export function authenticate(ctx: EmulatorContext, req: Request, acceptXApiKey: boolean): { key: string } | Refusal {
  const { spec } = ctx;
  const header = req.headers.get(spec.authentication.header);
  const xApiKey = acceptXApiKey ? req.headers.get('x-api-key') : null;
  const bearer = header === null ? undefined : /^Bearer (\S+)$/.exec(header)?.[1];
  const key = bearer ?? xApiKey ?? undefined;
  const fail = (message: string, code: string): Refusal => {
    if (ctx.fault('auth-wrong-key-403') && key !== undefined) return { status: 403, message, type: 'authentication_error', code, param: null };
    return { status: statusRow(spec, spec.authentication.failure_status), message, type: 'authentication_error', code, param: null };
  };
  if (header === null && xApiKey === null) {
    if (ctx.fault('auth-missing-key-accepted')) return { key: ctx.options.apiKeys[0] ?? 'anonymous' };
    return fail(`missing API key: send the header \`${spec.authentication.header}: ${spec.authentication.value_format ?? 'Bearer <API_KEY>'}\``, 'missing_api_key');
  }
  if (key === undefined) return fail(`malformed \`${spec.authentication.header}\` header: expected "Bearer <API_KEY>"`, 'invalid_api_key');
  // The key is never echoed back: error messages end up in logs.
  if (/^["']|["']$/.test(key)) return fail('the API key is wrapped in quotes; send it bare', 'invalid_api_key');
  if (ctx.options.revokedKeys?.includes(key)) return fail('the API key was revoked', 'invalid_api_key');
  if (!ctx.options.apiKeys.includes(key)) return fail('invalid API key', 'invalid_api_key');
  return { key };
}
