import type { EmulatorContext } from '../context.ts';

/**
 * The error `type` of the messages format's public convention, by status. The chat envelope's types
 * (`insufficient_balance`, `service_unavailable`...) are the chat format's; this format's clients know these.
 */
const TYPE_BY_STATUS: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  422: 'invalid_request_error',
  429: 'rate_limit_error',
  500: 'api_error',
  503: 'api_error',
};

/**
 * An error answered on {messages_base_url}, in the messages format's convention:
 * `{"type": "error", "error": {"type", "message"}}`. The description's envelope (an `error` object
 * holding `message` and `type`) holds inside it. Status and message are the chat refusal's; only the
 * shape changes, so every refusal of the emulator (validation, auth, limits) is written once.
 */
export async function asMessagesError(ctx: EmulatorContext, response: Response): Promise<Response> {
  const json = (response.headers.get('content-type') ?? '').startsWith('application/json');
  // The `messages-error-chat-shape` fault leaves the chat envelope as it is.
  if (response.status < 400 || !json || ctx.fault('messages-error-chat-shape')) return response;
  // The `messages-error-no-body` fault: the status alone, nothing for a client to pass on.
  if (ctx.fault('messages-error-no-body')) return new Response(null, { status: response.status });
  const body = (await response.json()) as { error?: { message?: unknown } };
  const message = typeof body.error?.message === 'string' ? body.error.message : '';
  const type = TYPE_BY_STATUS[response.status] ?? (response.status >= 500 ? 'api_error' : 'invalid_request_error');
  // The `messages-error-flat` fault: the message at the top level, no `error` object.
  const shaped = ctx.fault('messages-error-flat') ? { type: 'error', message } : { type: 'error', error: { type, message } };
  return new Response(JSON.stringify(shaped), { status: response.status, headers: response.headers });
}
