// Test support: a gateway that serves the messages format and answers it from a chat-completions
// upstream (the harness's upstream port), as claude-code-router does: written here on its own, from
// the two formats' conventions, never from the checks' table (checks/gateway/translation.ts), so
// the checks are held to a translation they did not write. One fault at a time, each what a real
// translating gateway was seen doing (fixtures/claude-code-router-messages/FINDINGS.md).
import { serveFetch, type FetchServer } from '#harness/core/http/fetchBridge.ts';
import { isRecord } from '#harness/core/isRecord.ts';
import { foldSse } from '#harness/core/sseFold.ts';

export const TRANSLATION_FAULTS = [
  'faithful',
  'stop-sequences-dropped',
  'top-p-dropped',
  'thinking-dropped',
  'message-start-input-zero',
  'content-filter-as-stop-sequence',
  'own-error-envelope',
] as const;
export type TranslationFault = (typeof TRANSLATION_FAULTS)[number];

type Json = Record<string, unknown>;

const textOf = (content: unknown): string => (typeof content === 'string' ? content : Array.isArray(content) ? content.map((b) => (isRecord(b) && typeof b.text === 'string' ? b.text : '')).join('') : '');

/** The messages-format request as the chat request it means. */
function chatRequest(b: Json, fault: TranslationFault): Json {
  const messages = [...(b.system !== undefined ? [{ role: 'system', content: textOf(b.system) }] : []), ...(Array.isArray(b.messages) ? b.messages.filter(isRecord).map((m) => ({ role: m.role, content: textOf(m.content) })) : [])];
  const out: Json = { model: b.model, messages, max_tokens: b.max_tokens };
  if (b.stop_sequences !== undefined && fault !== 'stop-sequences-dropped') out.stop = b.stop_sequences;
  if (b.temperature !== undefined) out.temperature = b.temperature;
  if (b.top_p !== undefined && fault !== 'top-p-dropped') out.top_p = b.top_p;
  if (isRecord(b.thinking)) {
    // The fault: a field of the gateway's own, which the service does not read (claude-code-router's `reasoning`).
    if (fault === 'thinking-dropped') out.reasoning = { effort: 'medium', enabled: b.thinking.type === 'enabled' };
    else out.thinking = { type: b.thinking.type };
  }
  if (Array.isArray(b.tools)) out.tools = b.tools.filter(isRecord).map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.input_schema } }));
  if (isRecord(b.tool_choice)) {
    const c = b.tool_choice;
    out.tool_choice = c.type === 'any' ? 'required' : c.type === 'tool' ? { type: 'function', function: { name: c.name } } : c.type;
  }
  if (b.stream === true) Object.assign(out, { stream: true, stream_options: { include_usage: true } });
  return out;
}

function stopReason(finish: unknown, fault: TranslationFault): string {
  switch (finish) {
    case 'length':
      return 'max_tokens';
    case 'tool_calls':
      return 'tool_use';
    case 'content_filter':
      return fault === 'content-filter-as-stop-sequence' ? 'stop_sequence' : 'refusal';
    default:
      return 'end_turn';
  }
}

function usageOf(u: unknown): Json {
  if (!isRecord(u)) return { input_tokens: 0, output_tokens: 0 };
  const hit = typeof u.prompt_cache_hit_tokens === 'number' ? u.prompt_cache_hit_tokens : 0;
  return { input_tokens: Number(u.prompt_tokens) - hit, output_tokens: u.completion_tokens, cache_read_input_tokens: hit };
}

/** One chat answer (put together from a stream or not) as its parts. */
interface Answer {
  id: string;
  model: unknown;
  content: string;
  reasoning: string;
  calls: { id: string; name: string; arguments: string }[];
  finish: unknown;
  usage: unknown;
}

function answerOf(chunks: Json[]): Answer {
  const a: Answer = { id: 'msg_gw', model: undefined, content: '', reasoning: '', calls: [], finish: undefined, usage: undefined };
  for (const c of chunks) {
    if (typeof c.id === 'string') a.id = `msg_${c.id}`;
    a.model ??= c.model;
    if (isRecord(c.usage)) a.usage = c.usage;
    const choice = Array.isArray(c.choices) && isRecord(c.choices[0]) ? c.choices[0] : undefined;
    if (!choice) continue;
    const part = isRecord(choice.message) ? choice.message : isRecord(choice.delta) ? choice.delta : {};
    if (typeof part.content === 'string') a.content += part.content;
    if (typeof part.reasoning_content === 'string') a.reasoning += part.reasoning_content;
    if (Array.isArray(part.tool_calls)) {
      part.tool_calls.filter(isRecord).forEach((call, i) => {
        const at = typeof call.index === 'number' ? call.index : i;
        const fn = isRecord(call.function) ? call.function : {};
        const into = (a.calls[at] ??= { id: '', name: '', arguments: '' });
        if (typeof call.id === 'string') into.id = call.id;
        if (typeof fn.name === 'string') into.name += fn.name;
        if (typeof fn.arguments === 'string') into.arguments += fn.arguments;
      });
    }
    if (choice.finish_reason !== null && choice.finish_reason !== undefined) a.finish = choice.finish_reason;
  }
  return a;
}

function blocks(a: Answer): Json[] {
  const input = (s: string) => {
    try {
      return JSON.parse(s) as unknown;
    } catch {
      return {};
    }
  };
  return [...(a.reasoning ? [{ type: 'thinking', thinking: a.reasoning }] : []), { type: 'text', text: a.content }, ...a.calls.map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: input(c.arguments) }))];
}

function messageOf(a: Answer, fault: TranslationFault): Json {
  return { id: a.id, type: 'message', role: 'assistant', model: a.model, content: blocks(a), stop_reason: stopReason(a.finish, fault), stop_sequence: null, usage: usageOf(a.usage) };
}

/** The messages format's stream of a whole answer: the upstream's stream is read to its end first, so every count is known. */
function streamOf(a: Answer, fault: TranslationFault): string {
  const ev = (name: string, data: Json) => `event: ${name}\ndata: ${JSON.stringify({ type: name, ...data })}\n\n`;
  const usage = usageOf(a.usage);
  const startUsage = fault === 'message-start-input-zero' ? { input_tokens: 0, output_tokens: 0 } : { ...usage, output_tokens: 0 };
  const out = [ev('message_start', { message: { id: a.id, type: 'message', role: 'assistant', model: a.model, content: [], stop_reason: null, stop_sequence: null, usage: startUsage } })];
  blocks(a).forEach((b, index) => {
    const { type } = b;
    out.push(ev('content_block_start', { index, content_block: type === 'text' ? { type, text: '' } : type === 'thinking' ? { type, thinking: '' } : { ...b, input: {} } }));
    const delta = type === 'text' ? { type: 'text_delta', text: b.text } : type === 'thinking' ? { type: 'thinking_delta', thinking: b.thinking } : { type: 'input_json_delta', partial_json: JSON.stringify(b.input) };
    out.push(ev('content_block_delta', { index, delta }), ev('content_block_stop', { index }));
  });
  out.push(ev('message_delta', { delta: { stop_reason: stopReason(a.finish, fault), stop_sequence: null }, usage }), ev('message_stop', {}));
  return out.join('');
}

/** The gateway on 127.0.0.1: POST …/v1/messages answered from `upstream`/v1/chat/completions, with the client's key passed on. */
export async function startTranslatingGateway(upstream: string, fault: TranslationFault): Promise<FetchServer> {
  const handle = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    if (request.method !== 'POST' || !url.pathname.endsWith('/v1/messages')) return Response.json({ type: 'error', error: { type: 'not_found_error', message: `no route ${url.pathname}` } }, { status: 404 });
    let body: unknown;
    try {
      body = await request.json();
    } catch {
      return Response.json({ type: 'error', error: { type: 'invalid_request_error', message: 'the body is not JSON' } }, { status: 400 });
    }
    const b = isRecord(body) ? body : {};
    const key = request.headers.get('x-api-key') ?? request.headers.get('authorization')?.replace(/^Bearer /, '') ?? '';
    const answer = await fetch(`${upstream}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(chatRequest(b, fault)) });
    const text = await answer.text();
    if (answer.status !== 200) {
      let error: Json = {};
      try {
        const parsed = JSON.parse(text) as unknown;
        if (isRecord(parsed) && isRecord(parsed.error)) error = parsed.error;
      } catch {
        // No envelope: the words are the text.
      }
      const own = { error: { message: `Error from provider (${answer.status}): ${text}`, type: 'api_error', code: 'provider_response_error' } };
      const passed = { type: 'error', error: { type: error.type ?? 'api_error', message: error.message ?? text } };
      return Response.json(fault === 'own-error-envelope' ? own : passed, { status: answer.status, headers: answer.headers.get('retry-after') ? { 'retry-after': answer.headers.get('retry-after')! } : {} });
    }
    if (b.stream === true) {
      const chunks = foldSse(text).events.flatMap((e) => {
        if (e.kind !== 'data' || e.data === '[DONE]') return [];
        try {
          const c = JSON.parse(e.data) as unknown;
          return isRecord(c) ? [c] : [];
        } catch {
          return [];
        }
      });
      return new Response(streamOf(answerOf(chunks), fault), { headers: { 'content-type': 'text/event-stream' } });
    }
    return Response.json(messageOf(answerOf([JSON.parse(text) as Json]), fault));
  };
  return serveFetch(handle, { failure: (e) => Response.json({ type: 'error', error: { type: 'api_error', message: String(e) } }, { status: 502 }) });
}
