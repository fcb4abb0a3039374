/**
 * Every way the emulator can be told to break the contract, one rule each. A fault is switched on
 * by name (`--fault NAME`); the code that honours it sits where the rule is kept, as
 * `ctx.fault('<id>')`. `breaks` names the spec entry the fault violates, so a test can show the
 * harness's checks of that entry fail.
 */
export interface FaultDef {
  id: string;
  area: FaultArea;
  summary: string;
  breaks: string;
  /**
   * Breaks no rule: the fault tests a premise of the checks of `breaks` (they must be inconclusive,
   * never fail or pass).
   */
  premise?: true;
  /**
   * Acts only while more than this many requests are in flight at the emulator (every key and route,
   * state/inFlight.ts); at or below it the emulator is clean, so a run that never sends more at once
   * never sees the fault.
   */
  inFlightAbove?: number;
}

/**
 * "Under load": more than this many requests in flight at the emulator, across keys and routes. The
 * load faults (area `load`, but `answers-crossed`) act only then.
 */
export const UNDER_LOAD_IN_FLIGHT = 8;
/** The `answers-crossed` fault's threshold: the crossing check's prompts, sent at once, exceed it in an ordinary run. */
export const CROSSED_IN_FLIGHT = 3;

export type FaultArea =
  | 'schema' | 'status' | 'stream' | 'usage' | 'lifecycle' | 'auth' | 'tools' | 'json-mode'
  | 'thinking' | 'fim' | 'prefix' | 'balance' | 'caching' | 'output' | 'bases' | 'statelessness' | 'endpoints'
  | 'conversation' | 'messages' | 'load';

export const FAULTS = [
  // schema of each object
  { id: 'completion-missing-usage', area: 'schema', summary: 'non-streamed completions carry no `usage`', breaks: 'objects.chat_completion.fields.usage' },
  { id: 'completion-wrong-object', area: 'schema', summary: '`object` is "chat.completions" instead of "chat.completion"', breaks: 'objects.chat_completion.fields.object' },
  { id: 'completion-created-as-string', area: 'schema', summary: '`created` is an ISO date string instead of Unix seconds', breaks: 'objects.chat_completion.fields.created' },
  { id: 'completion-bad-finish-reason', area: 'schema', summary: '`finish_reason` "done" instead of a listed value', breaks: 'objects.choice.fields.finish_reason' },
  { id: 'completion-text-content-type', area: 'schema', summary: 'a completion\'s JSON is served as `text/plain` (the description names no media type; the official openai client then hands back a string)', breaks: 'objects.chat_completion' },
  { id: 'message-wrong-role', area: 'schema', summary: 'the reply message has role "bot"', breaks: 'objects.assistant_message.fields.role' },
  { id: 'chunk-wrong-object', area: 'schema', summary: 'stream chunks say `object` "chat.completion"', breaks: 'objects.chat_completion_chunk.fields.object' },
  { id: 'models-missing-id', area: 'schema', summary: 'model-list entries have `name` instead of `id`', breaks: 'objects.model_entry.fields.id' },
  { id: 'balance-amount-as-number', area: 'schema', summary: 'balance amounts are JSON numbers, not decimal strings', breaks: 'objects.balance_info.fields.total_balance' },
  { id: 'fim-missing-text', area: 'schema', summary: 'fill-in-the-middle choices carry `content` instead of `text`', breaks: 'objects.fim_completion' },
  { id: 'messages-missing-content', area: 'schema', summary: 'messages-format replies carry `completion` instead of a `content` array', breaks: 'objects.messages_response.fields.content' },
  { id: 'extra-fields', area: 'schema', summary: 'every JSON body and chunk carries a field the description does not list (as real endpoints do)', breaks: 'objects' },
  { id: 'models-bare-array', area: 'schema', summary: 'GET /models answers a bare array of entries, not an object', breaks: 'objects.model_list' },
  { id: 'completion-bare-uuid-id', area: 'schema', summary: 'completion ids are bare UUIDs, without the `chatcmpl-` shape (as production does)', breaks: 'objects.chat_completion.fields.id.pattern' },
  { id: 'content-null', area: 'schema', summary: '`content` is null instead of a string, in replies and in stream deltas', breaks: 'objects.assistant_message.fields.content.nullable' },
  { id: 'created-in-milliseconds', area: 'schema', summary: '`created` is Unix time in milliseconds, in bodies and chunks', breaks: 'meanings.created-is-unix-seconds' },
  { id: 'model-unknown-in-answer', area: 'schema', summary: 'answers (bodies and chunks) name a model the service does not have', breaks: 'meanings.model-names-a-model' },
  { id: 'models-list-missing-current', area: 'schema', summary: 'GET /models leaves out svc-v4-pro, which the emulator serves', breaks: 'meanings.models-lists-served-models' },
  { id: 'error-code-number', area: 'schema', summary: '`error.code` is the status as a number, where the sample shows a string', breaks: 'objects.error_envelope' },
  { id: 'error-envelope-flat', area: 'schema', summary: 'errors are `{"message": ...}` with no `error` object', breaks: 'objects.error_envelope' },
  // statuses
  { id: 'empty-messages-accepted', area: 'status', summary: 'an empty `messages` array is answered 200', breaks: 'rules.chat.messages.non-empty' },
  { id: 'unknown-model-500', area: 'status', summary: 'an unknown model id gets 500 instead of 400/404', breaks: 'rules.chat.model.valid-id' },
  { id: 'bounds-not-enforced', area: 'status', summary: 'out-of-range values (temperature 2.5, 5 stop sequences...) are accepted', breaks: 'rules.bound.out-of-range' },
  { id: 'max-tokens-not-capped', area: 'status', summary: '`max_tokens` above the model maximum is accepted', breaks: 'rules.chat.max-tokens.per-model-maximum' },
  { id: 'top-logprobs-without-logprobs', area: 'status', summary: '`top_logprobs` without `logprobs` is accepted', breaks: 'rules.chat.top-logprobs.requires-logprobs' },
  { id: 'invalid-json-500', area: 'status', summary: 'a body that is not JSON gets 500', breaks: 'rules.chat.invalid-json' },
  { id: 'bounds-too-tight', area: 'status', summary: 'values at the stated bounds (temperature 2, 4 stop sequences, max_tokens 384000...) are refused', breaks: 'objects.chat_completion_request' },
  { id: 'missing-field-422', area: 'status', summary: 'a missing required field gets 422 instead of 400', breaks: 'rules.chat.required-field.missing' },
  { id: 'second-case-500', area: 'status', summary: 'a body without `model` is refused with 400, but one with `model` and without `messages` (the rule\'s second case) gets 500 and a server_error envelope', breaks: 'rules.chat.required-field.missing' },
  { id: 'stop-always-refused', area: 'status', summary: 'every chat request carrying `stop`, whatever its value, is refused with 400 "does not support parameters"', breaks: 'objects.chat_completion_request.fields.stop' },
  { id: 'reasoning-effort-always-refused', area: 'status', summary: 'every chat request carrying `reasoning_effort`, whatever its value, is refused with 400 "does not support parameters" (as the OpenAI-compatible provider of a gateway does)', breaks: 'objects.chat_completion_request.fields.reasoning_effort' },
  // stream order and framing
  { id: 'stream-no-done', area: 'stream', summary: 'streams end without `data: [DONE]`', breaks: 'streaming.events.terminator' },
  { id: 'stream-no-role', area: 'stream', summary: 'the first chunk has no `role`', breaks: 'streaming.events.first_chunk' },
  { id: 'stream-no-choice-index', area: 'stream', summary: 'stream chunks\' choices have no `index` (the official openai client\'s stream helper then ends without a message)', breaks: 'objects.chunk_choice.fields.index' },
  { id: 'stream-finish-every-chunk', area: 'stream', summary: 'every chunk carries `finish_reason` "stop"', breaks: 'streaming.rules.stream.finish-reason-only-final' },
  { id: 'stream-id-changes', area: 'stream', summary: 'each chunk has a new id', breaks: 'streaming.rules.stream.one-id' },
  { id: 'stream-data-after-done', area: 'stream', summary: 'a chunk follows `data: [DONE]`', breaks: 'streaming.rules.stream.done-last' },
  { id: 'stream-no-final-chunk', area: 'stream', summary: 'no final chunk with `finish_reason`: content then `[DONE]`', breaks: 'streaming.events.final_chunk' },
  { id: 'stream-json-content-type', area: 'stream', summary: 'streams are served as application/json', breaks: 'endpoints.chat_completions.stream.content_type' },
  { id: 'stream-malformed-event', area: 'stream', summary: 'one chunk in the middle is not valid JSON', breaks: 'streaming.framing' },
  { id: 'stream-no-choices', area: 'stream', summary: 'every chunk of a chat stream carries `choices: []`: no role, text or finish_reason arrives (the final chunk still carries `usage`)', breaks: 'streaming.rules.stream.carries-a-choice' },
  { id: 'stream-usage-separate-chunk', area: 'stream', summary: 'a chat stream sends `usage` not in the final chunk but in an extra chunk with `choices: []` after it (some compatible servers do; production sends it in the final chunk)', breaks: 'streaming.rules.stream.usage-in-final-chunk' },
  // The usage carrier's reading (streaming.yaml usage_carrier): a `choices: []` chunk is set aside only when it carries usage, last, right after the final chunk.
  { id: 'stream-empty-chunk-after-final', area: 'stream', summary: 'a chat stream sends, after its final chunk (which carries `usage`), one more chunk with `choices: []` and no `usage`: the final chunk is not the last', breaks: 'streaming.events.final_chunk' },
  { id: 'stream-usage-chunk-no-final', area: 'stream', summary: 'a chat stream ends its content with a chunk of `choices: []` and `usage` and sends no final chunk: no `finish_reason` arrives', breaks: 'streaming.events.final_chunk' },
  // usage arithmetic
  { id: 'usage-total-wrong', area: 'usage', summary: '`total_tokens` is one more than prompt + completion', breaks: 'meanings.usage-total-is-sum' },
  { id: 'usage-cache-sum-wrong', area: 'usage', summary: 'cache hit + miss differs from `prompt_tokens`', breaks: 'meanings.usage-cache-split-is-prompt' },
  { id: 'usage-no-cache-fields', area: 'usage', summary: '`usage` (in bodies and in a stream\'s usage chunk) lacks `prompt_cache_hit_tokens` and `prompt_cache_miss_tokens` (as many OpenAI-compatible servers answer)', breaks: 'objects.usage.fields.prompt_cache_hit_tokens' },
  { id: 'max-tokens-ignored', area: 'usage', summary: '`max_tokens` is not honoured: output runs past it', breaks: 'rules.chat.max-tokens.length' },
  // output
  { id: 'stop-sequence-ignored', area: 'output', summary: 'stop sequences do not end the output', breaks: 'rules.chat.stop.not-in-output' },
  { id: 'length-says-stop', area: 'output', summary: 'output cut by `max_tokens` reports `finish_reason` "stop"', breaks: 'rules.chat.max-tokens.length' },
  // text as users write it: scripts other than ASCII
  { id: 'non-ascii-500', area: 'output', summary: 'a chat request whose body holds any character outside ASCII (Chinese, accents, emoji) is answered 500 with the error envelope', breaks: 'objects.chat_completion_request' },
  { id: 'non-ascii-mangled', area: 'output', summary: 'answer text is sent as mojibake: its UTF-8 bytes read as Latin-1 (`café` becomes `cafÃ©`), in bodies and streams', breaks: 'objects.assistant_message.fields.content' },
  { id: 'non-ascii-split-surrogates', area: 'output', summary: 'a stream splits each character outside the Basic Multilingual Plane (emoji) into two `content` deltas, each a lone UTF-16 surrogate', breaks: 'objects.assistant_message.fields.content' },
  { id: 'non-ascii-stop-ignored', area: 'output', summary: 'stop sequences that hold a character outside ASCII do not end the output (ASCII ones do)', breaks: 'rules.chat.stop.not-in-output' },
  // lifecycle
  { id: 'alias-never-retires', area: 'lifecycle', summary: 'legacy aliases keep routing after their retirement instant', breaks: 'rules.retired-alias.refused' },
  { id: 'alias-retired-early', area: 'lifecycle', summary: 'legacy aliases are refused before their retirement instant', breaks: 'lifecycle.transitions' },
  { id: 'retired-alias-falls-back', area: 'lifecycle', summary: 'a retired alias is answered by its replacement instead of an error', breaks: 'errors.retired_alias' },
  { id: 'replacement-withdrawn', area: 'lifecycle', summary: 'svc-v4-flash, the replacement of both legacy aliases, is refused as unknown', breaks: 'lifecycle.replacement' },
  { id: 'reasoner-routes-non-thinking', area: 'lifecycle', summary: 'svc-reasoner routes without thinking (no reasoning_content)', breaks: 'models.svc-reasoner.routes_to' },
  // authentication
  { id: 'auth-missing-key-accepted', area: 'auth', summary: 'requests without a key are answered', breaks: 'authentication.failure_status' },
  { id: 'auth-wrong-key-403', area: 'auth', summary: 'an unknown key gets 403 instead of 401', breaks: 'authentication.failure_status' },
  // tools
  { id: 'tool-arguments-not-json', area: 'tools', summary: 'tool call arguments are not JSON', breaks: 'rules.chat.tools.arguments-are-json' },
  { id: 'tool-arguments-off-schema', area: 'tools', summary: 'tool call arguments miss a required property of the tool schema', breaks: 'rules.chat.tools.arguments-are-json' },
  { id: 'tool-finish-reason-stop', area: 'tools', summary: 'a reply with tool calls says `finish_reason` "stop"', breaks: 'rules.chat.tools.finish-reason-tool-calls' },
  { id: 'tool-choice-none-ignored', area: 'tools', summary: '`tool_choice` "none" still calls a tool', breaks: 'rules.chat.tool-choice.none-forbids-tools' },
  { id: 'tool-choice-required-ignored', area: 'tools', summary: '`tool_choice` "required" answers with text', breaks: 'rules.chat.tool-choice.required-forces-call' },
  { id: 'tool-choice-named-ignored', area: 'tools', summary: 'the object form of `tool_choice` calls another function', breaks: 'rules.chat.tool-choice.named-forces-function' },
  { id: 'stream-tool-call-no-index', area: 'tools', summary: 'streamed tool-call deltas carry no `index` (the description shows no field of a tool call beyond `function`; the official openai client then assembles no call)', breaks: 'objects.tool_call' },
  { id: 'tool-call-unoffered-function', area: 'tools', summary: 'tool calls (bodies and streams) name a function the request did not offer', breaks: 'meanings.tool-call-names-offered-function' },
  { id: 'tool-choice-auto-refused', area: 'tools', summary: '`tool_choice` "auto" is refused', breaks: 'rules.chat.tool-choice.auto-model-decides' },
  { id: 'tool-call-cut-off', area: 'tools', summary: 'tool calls carry arguments thousands of tokens long (a string property padded), so `max_tokens` cuts them off: `finish_reason` "length", the arguments a prefix that is not JSON (bodies and streams); breaks no rule, a verdict on the call needs an answer not cut off', breaks: 'rules.chat.tools.finish-reason-tool-calls', premise: true },
  // JSON mode
  { id: 'json-mode-not-json', area: 'json-mode', summary: 'JSON mode answers with text that does not parse', breaks: 'rules.chat.response-format.json-output' },
  // thinking
  { id: 'thinking-no-reasoning', area: 'thinking', summary: 'thinking enabled, but no `reasoning_content`', breaks: 'rules.chat.thinking.enabled-carries-reasoning' },
  { id: 'reasoning-when-disabled', area: 'thinking', summary: '`reasoning_content` is filled with thinking disabled', breaks: 'rules.chat.thinking.disabled-no-reasoning' },
  { id: 'reasoning-effort-none-thinks', area: 'thinking', summary: '`reasoning_effort` "none" still thinks', breaks: 'rules.chat.reasoning-effort.none-equals-disabled' },
  { id: 'stream-reasoning-when-disabled', area: 'thinking', summary: 'streams carry reasoning text with thinking disabled (bodies do not)', breaks: 'rules.chat.thinking.disabled-no-reasoning' },
  { id: 'thinking-with-tools-refused', area: 'thinking', summary: 'thinking enabled together with tools is refused', breaks: 'rules.chat.thinking.with-tools' },
  // fill-in-the-middle
  { id: 'fim-thinking-accepted', area: 'fim', summary: 'fill-in-the-middle with thinking enabled is answered 200', breaks: 'rules.fim.thinking' },
  { id: 'fim-json-mode-accepted', area: 'fim', summary: 'fill-in-the-middle with JSON mode is answered 200', breaks: 'rules.fim.json-mode' },
  { id: 'fim-outside-beta', area: 'fim', summary: 'fill-in-the-middle is served on the root base too', breaks: 'rules.fim.requires-beta-base' },
  { id: 'fim-needs-max-tokens', area: 'fim', summary: 'fill-in-the-middle without `max_tokens` is refused (no default applied)', breaks: 'rules.fim.max-tokens-default' },
  { id: 'fim-stream-ignored', area: 'fim', summary: 'fill-in-the-middle with `stream: true` answers a plain JSON body', breaks: 'streaming.fim_stream' },
  // prefix completion
  { id: 'prefix-without-flag-accepted', area: 'prefix', summary: 'a prefix request without `prefix: true` is answered 200', breaks: 'rules.prefix.without-prefix-flag' },
  { id: 'prefix-outside-beta', area: 'prefix', summary: 'prefix completion is served outside the beta base', breaks: 'rules.prefix.requires-beta-base' },
  { id: 'prefix-ignored', area: 'prefix', summary: 'a prefix completion is answered as if there were no prefix', breaks: 'rules.prefix.continues-prefix' },
  { id: 'prefix-refused', area: 'prefix', summary: 'prefix completion (`prefix: true` on the beta base) is refused', breaks: 'rules.prefix.continues-prefix' },
  // balance
  { id: 'balance-topped-up-first', area: 'balance', summary: 'topped-up balance is spent before granted balance', breaks: 'billing.spending_order' },
  { id: 'balance-402-not-enforced', area: 'balance', summary: 'an empty balance is still served', breaks: 'rules.balance.insufficient' },
  { id: 'balance-total-not-sum', area: 'balance', summary: '`total_balance` is one unit more than granted + topped-up, in every currency', breaks: 'meanings.balance-total-is-sum' },
  // caching
  { id: 'cache-never-hits', area: 'caching', summary: 'repeated prompt prefixes never hit the cache', breaks: 'context_caching' },
  { id: 'cache-hits-under-minimum', area: 'caching', summary: 'prompts under the 64-token minimum report cache hits', breaks: 'context_caching.min_tokens' },
  // bases
  { id: 'v1-missing', area: 'bases', summary: '{base_url}/v1 answers 404', breaks: 'bases.v1' },
  { id: 'v1-models-differ', area: 'bases', summary: '{base_url}/v1/models lists one model fewer than {base_url}/models', breaks: 'bases.v1' },
  { id: 'v1-strips-fields', area: 'bases', summary: '{base_url}/v1 answers without `reasoning_content` and the cache split of `usage` (a gateway rewriting one path)', breaks: 'bases.v1' },
  // endpoints not served: the route answers as a path that does not exist
  { id: 'chat-not-served', area: 'endpoints', summary: 'POST {base_url}/chat/completions answers 404 as an unknown path', breaks: 'endpoints.chat_completions' },
  { id: 'beta-not-served', area: 'endpoints', summary: 'nothing under {beta_base_url} is served (chat, fill-in-the-middle)', breaks: 'bases.beta' },
  { id: 'models-not-served', area: 'endpoints', summary: 'GET /models answers 404 as an unknown path, on every base', breaks: 'endpoints.list_models' },
  { id: 'balance-not-served', area: 'endpoints', summary: 'GET /user/balance answers 404 as an unknown path, on every base', breaks: 'endpoints.user_balance' },
  { id: 'messages-not-served', area: 'endpoints', summary: 'the messages format is not served', breaks: 'endpoints.messages' },
  // statelessness
  { id: 'stateful-history', area: 'statelessness', summary: 'answers depend on earlier requests of the same key', breaks: 'statelessness' },
  // conversations: several turns in one request
  { id: 'tool-result-refused', area: 'conversation', summary: 'a message with role `tool` is refused with 400', breaks: 'conversation.tool-round-trip' },
  { id: 'assistant-turn-refused', area: 'conversation', summary: 'a request holding an earlier assistant turn (any but a prefix-completion last message) is refused with 400', breaks: 'conversation.assistant-turns' },
  { id: 'history-dropped', area: 'conversation', summary: 'only the last message is read (a gateway truncating history); the system message is dropped too', breaks: 'conversation.history-used' },
  { id: 'reasoner-accepts-reasoning-content', area: 'conversation', summary: 'svc-reasoner accepts `reasoning_content` sent back inside messages', breaks: 'conversation.reasoner-reasoning-content-refused' },
  { id: 'thinking-tool-turn-needs-reasoning', area: 'conversation', summary: 'as production does (capture error-400-05): in thinking mode a current model refuses, 400 with the production message, an assistant turn with `tool_calls` sent back without its `reasoning_content`', breaks: 'conversation.v4-thinking-tool-turns' },
  { id: 'thinking-plain-turn-needs-reasoning', area: 'conversation', summary: 'in thinking mode a current model refuses, 400 "reasoning_content missing", a request whose earlier plain assistant turn (no `tool_calls`) is sent back without `reasoning_content` (openclaw#73417, kimi-cli#2141)', breaks: 'conversation.thinking-plain-turns' },
  // the messages format
  { id: 'messages-tools-ignored', area: 'messages', summary: 'tools in the messages format are answered with text', breaks: 'messages_format.tool-use' },
  { id: 'messages-tool-result-refused', area: 'messages', summary: 'a `tool_result` block in the messages format is refused with 400', breaks: 'messages_format.tool-result' },
  { id: 'messages-stream-out-of-order', area: 'messages', summary: 'messages-format streams send `message_stop` before `content_block_stop` and `message_delta`', breaks: 'messages_format.stream-event-order' },
  { id: 'messages-stop-reason-chat-style', area: 'messages', summary: 'messages-format `stop_reason` is "stop" (the chat-completions word) instead of "end_turn", in bodies and streams', breaks: 'messages_format.response-shape' },
  { id: 'messages-error-chat-shape', area: 'messages', summary: 'messages-format errors are the chat envelope `{"error": {...}}`, without the top-level `type: "error"`', breaks: 'messages_format.error-convention' },
  { id: 'messages-error-no-body', area: 'messages', summary: 'messages-format errors carry their status and no body (the official anthropic client then says "400 status code (no body)")', breaks: 'messages_format.error-envelope' },
  { id: 'messages-text-content-type', area: 'messages', summary: 'a messages-format reply\'s JSON is served as `text/plain` (the description names no media type; the official anthropic client then hands back a string)', breaks: 'messages_format.response-shape' },
  { id: 'messages-error-flat', area: 'messages', summary: 'messages-format errors are `{"type": "error", "message": ...}` with no `error` object', breaks: 'messages_format.error-envelope' },
  // streamed refusals: a request the chat endpoint refuses, sent with `stream: true` (the same request unstreamed is refused as the spec says)
  { id: 'streamed-refusal-as-sse-error', area: 'status', summary: 'a chat request refused for what it says (4xx), sent with `stream: true`, is answered 200 `text/event-stream` holding the error envelope as a data event (as clawrouter#101 reports)', breaks: 'rules.chat.messages.non-empty' },
  { id: 'streamed-refusal-500', area: 'status', summary: 'a chat request refused for what it says (4xx), sent with `stream: true`, is answered 500 with a server_error envelope (as ai-dial-adapter-openai#529 reports)', breaks: 'rules.chat.messages.non-empty' },
  // under load: more than UNDER_LOAD_IN_FLIGHT requests in flight at the emulator (one rule of rate_limits.under_load each)
  { id: 'load-answers-crossed', area: 'load', summary: `under load (more than ${UNDER_LOAD_IN_FLIGHT} requests in flight), each non-streamed chat completion is answered with the body made for the one answered before it (the first under load with its own)`, breaks: 'rate_limits.under_load.answers-not-crossed', inFlightAbove: UNDER_LOAD_IN_FLIGHT },
  { id: 'load-excess-500', area: 'load', summary: `under load (more than ${UNDER_LOAD_IN_FLIGHT} requests in flight), a request that arrives is answered 500 with the error envelope instead of being served (or refused with 429)`, breaks: 'rate_limits.under_load.excess-refused', inFlightAbove: UNDER_LOAD_IN_FLIGHT },
  { id: 'load-streams-cut', area: 'load', summary: `under load (more than ${UNDER_LOAD_IN_FLIGHT} requests in flight), a chat stream ends after a few events and before its final chunk: the body ends with no \`finish_reason\` and no \`data: [DONE]\``, breaks: 'rate_limits.under_load.streams-finished', inFlightAbove: UNDER_LOAD_IN_FLIGHT },
  { id: 'load-requests-hung', area: 'load', summary: `under load (more than ${UNDER_LOAD_IN_FLIGHT} requests in flight), a request that arrives is never answered: no status, no headers, until the client goes away`, breaks: 'rate_limits.under_load.no-request-hung', inFlightAbove: UNDER_LOAD_IN_FLIGHT },
  { id: 'load-usage-dropped', area: 'load', summary: `under load (more than ${UNDER_LOAD_IN_FLIGHT} requests in flight), chat completions carry no \`usage\`, in bodies and in a stream's final chunk`, breaks: 'rate_limits.under_load.answers-conform', inFlightAbove: UNDER_LOAD_IN_FLIGHT },
  { id: 'load-no-recovery', area: 'load', summary: `once more than ${UNDER_LOAD_IN_FLIGHT} requests were in flight, every later request is refused 429 (with the envelope and Retry-After), for as long as the emulator runs: it never serves again after the peak`, breaks: 'rate_limits.under_load.recovers', inFlightAbove: UNDER_LOAD_IN_FLIGHT },
  { id: 'answers-crossed', area: 'load', summary: `each non-streamed chat completion answered while more than ${CROSSED_IN_FLIGHT} requests are in flight is answered with the body made for the one answered before it (the first with its own)`, breaks: 'meanings.answer-belongs-to-request', inFlightAbove: CROSSED_IN_FLIGHT },
  // under load, issue 47: streams crossed; another model named
  { id: 'load-streams-crossed', area: 'load', summary: `under load (more than ${UNDER_LOAD_IN_FLIGHT} requests in flight), each chat stream is the stream made for the one streamed before it (the first under load its own), its usage and text another request's`, breaks: 'rate_limits.under_load.answers-not-crossed', inFlightAbove: UNDER_LOAD_IN_FLIGHT },
  { id: 'load-model-renamed', area: 'load', summary: `under load (more than ${UNDER_LOAD_IN_FLIGHT} requests in flight), chat completions and their chunks name \`gpt-4o-mini\`, a model of another service, as a gateway that routes away under load would`, breaks: 'rate_limits.under_load.answers-conform', inFlightAbove: UNDER_LOAD_IN_FLIGHT },
] as const satisfies readonly FaultDef[];

export type FaultId = (typeof FAULTS)[number]['id'];

const IDS = new Set<string>(FAULTS.map((f) => f.id));

export function isFaultId(value: string): value is FaultId {
  return IDS.has(value);
}

const THRESHOLDS = new Map<string, number>(FAULTS.flatMap((f): [string, number][] => ('inFlightAbove' in f ? [[f.id, f.inFlightAbove]] : [])));

/** The requests in flight a fault waits for (`inFlightAbove`), or undefined for a fault that always acts. */
export function inFlightAbove(id: FaultId): number | undefined {
  return THRESHOLDS.get(id);
}
