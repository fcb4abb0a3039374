import type { RecordedThirdParty } from './recorded.ts';

/**
 * The Portkey AI gateway 1.15.2 (@portkey-ai/gateway from npm) with its `deepseek` provider, the one a
 * user of this service would pick, pointed at the harness as its upstream by `x-portkey-custom-host`
 * (a custom host replaces any provider's base URL: getFullURL, `customHost || getBaseURL()`; the
 * deepseek provider then appends /v1/chat/completions): recorded by `scripts/third-party/portkey.sh
 * deepseek`, every phase on svc-v4-flash and the load phase at 16 in flight (issue 40), both sides of
 * every exchange (upstream.json). Base URL http://127.0.0.1:18787/v1: /v1/chat/completions is the
 * provider's route (its allow-list going up, its response transforms coming back), while
 * {base_url}/v1, {beta_base_url}, {messages_base_url} and /user/balance are Portkey's generic proxy
 * route (`POST /v1/*`, verbatim). Each verdict established by hand (curl through the running
 * gateway, its build/start-server.js, each client fed the recorded bytes and against the gateway):
 * fixtures/portkey-FINDINGS.md, "Every phase, and under load"; recorded again for issue 47 (its
 * streamed refusals, requests in other scripts, the plain turns and the tool round trip in each thinking
 * mode, the changed coverage, crossing and load requests), each new or moved verdict established by hand
 * again: "Recorded again for issue 47 (2026-12-02)" there.
 */
const NULL_TYPE = 'refused with the right status, but the deepseek provider rewrites every upstream error: its transform looks for `message` at the top of the body, finds the service\'s `{error: {...}}` instead and answers {"error":{"message":"Invalid response received from deepseek: <the upstream body as text>","type":null,"param":null,"code":null},"provider":"deepseek"} (build/start-server.js, the deepseek chatComplete transform falling to its "Invalid response" wrapper); curl likewise; "`type` (string)"';

const pins: RecordedThirdParty = {
  name: 'portkey-deepseek-gateway',
  fixtures: 'fixtures/portkey-deepseek-gateway',
  args: ['--model', 'svc-v4-flash', '--load', '16'],
  exitCode: 1,
  verdicts: {
    'output.stop-sequence.non-ascii-ends-output': { verdict: 'pass', why: 'stop ["停止🛑"] is on the deepseek allow-list and reaches the upstream as sent; the rebuilt body keeps the content: "café 東京 ", finish_reason "stop", where the same prompt without stop is repeated whole (upstream.json; curl likewise)' },
    'answer.non-ascii.answered-intact': { verdict: 'pass', why: 'the system message and prompt in other scripts reach the upstream unchanged and the rebuilt body and chunks keep the text intact (every event valid UTF-8; curl likewise, body and stream). In the tool round trip `tools` is dropped, so the tool\'s description in other scripts never reaches the upstream, but the messages go whole, the call\'s arguments and the result included, and the answer repeats the result intact ("The tool returned: Zürich: 晴れ ☀️ 22°C"): what the check judges holds' },
    // The streamed twins of the refusal checks (issue 47, item 1): each refusal sent with stream: true.
    'property.invalid-classes.refused-with-spec-status.streamed': { verdict: 'skip', why: 'inconclusive: the same classes streamed, the same defects: every refusal 400 with type null, `messages` "wrong-type" 500 from Portkey, the dropped fields (tools, tool_choice, thinking, reasoning_effort) answered 200; property.invalid-classes.refused-with-spec-status fails on it' },
    'request.frequency-penalty.refused-beyond-bounds.streamed': { verdict: 'skip', why: 'inconclusive: streamed too, -2.01 and 2.01 reach the upstream as -2 and 2 and are answered 200 (curl through a logging proxy); request.frequency-penalty.refused-beyond-bounds fails on it' },
    'request.max-tokens.refused-beyond-bounds.streamed': { verdict: 'skip', why: 'inconclusive: streamed too, max_tokens 384001 reaches the upstream, 400 with type null (the "Invalid response received from deepseek" wrapper, curl likewise); request.max-tokens.refused-beyond-bounds fails on it' },
    'request.presence-penalty.refused-beyond-bounds.streamed': { verdict: 'skip', why: 'inconclusive: streamed too, clamped to -2 and 2 and answered 200 (curl); request.presence-penalty.refused-beyond-bounds fails on it' },
    'request.reasoning-effort.refused-beyond-bounds.streamed': { verdict: 'skip', why: 'inconclusive: streamed too, a reasoning_effort off the list is dropped (not on the deepseek allow-list) and answered 200 (curl: the upstream got no reasoning_effort); request.reasoning-effort.refused-beyond-bounds fails on it' },
    'request.stop.refused-beyond-bounds.streamed': { verdict: 'skip', why: 'inconclusive: streamed too, five stop sequences reach the upstream, 400 with type null (the "Invalid response received from deepseek" wrapper, curl likewise); request.stop.refused-beyond-bounds fails on it' },
    'request.temperature.refused-beyond-bounds.streamed': { verdict: 'skip', why: 'inconclusive: streamed too, clamped to 0 and 2 and answered 200 (curl); request.temperature.refused-beyond-bounds fails on it' },
    'request.top-logprobs.refused-beyond-bounds.streamed': { verdict: 'skip', why: 'inconclusive: streamed too, -1 and 21 reach the upstream as 0 and 20 and are answered 200 (curl); request.top-logprobs.refused-beyond-bounds fails on it' },
    'rule.balance.insufficient.streamed': { verdict: 'skip', why: 'not applicable: no key with an empty balance was named (--empty-balance-key-env)' },
    'rule.chat.messages.non-empty.streamed': { verdict: 'skip', why: 'inconclusive: streamed too, `messages: []` 400 with type null (the "Invalid response received from deepseek" wrapper, curl likewise); rule.chat.messages.non-empty fails on it' },
    'rule.chat.model.valid-id.streamed': { verdict: 'skip', why: 'inconclusive: streamed too, an unknown model 400 with type null (the "Invalid response received from deepseek" wrapper, curl likewise); rule.chat.model.valid-id fails on it' },
    'rule.chat.required-field.missing.streamed': { verdict: 'skip', why: 'inconclusive: streamed too, both cases 400 with type null (without `model` the provider fills in its default "deepseek-chat", which the upstream refuses as unknown; curl); rule.chat.required-field.missing fails on it' },
    'rule.chat.top-logprobs.requires-logprobs.streamed': { verdict: 'skip', why: 'inconclusive: streamed too, top_logprobs without logprobs reaches the upstream, 400 with type null (the "Invalid response received from deepseek" wrapper, curl likewise); rule.chat.top-logprobs.requires-logprobs fails on it' },
    'rule.chat.wrong-type.streamed': { verdict: 'skip', why: 'inconclusive: streamed too, a temperature of type string reaches the upstream, 400 with type null (the "Invalid response received from deepseek" wrapper, curl likewise); rule.chat.wrong-type fails on it' },
    'rule.prefix.requires-beta-base.streamed': { verdict: 'skip', why: 'inconclusive: streamed too, a prefix message on /v1/chat/completions reaches the upstream whole, 400 with type null (the "Invalid response received from deepseek" wrapper, curl likewise); rule.prefix.requires-beta-base fails on it' },
    'rule.prefix.without-prefix-flag.streamed': { verdict: 'pass', why: 'streamed, on the beta base (the proxy route, not the provider): the upstream\'s 422 verbatim, type kept (curl likewise)' },
    // What Portkey's deepseek provider changes, judged against what the harness as its upstream received and sent.
    'gateway.request.parameters-passed-on': { verdict: 'fail', why: '`tools`, `tool_choice`, `thinking` and `reasoning_effort` never reach the upstream (the deepseek allow-list: model, messages, response_format, max_tokens, max_completion_tokens as max_tokens, temperature 0..2, top_p 0..1, stream, frequency_penalty and presence_penalty -2..2, stop, logprobs, top_logprobs 0..20; stream_options too is dropped), and a temperature of 3 reaches it as 2 (clamped); curl through the gateway, the upstream\'s log' },
    'gateway.answer.passed-on': { verdict: 'fail', why: 'the body is rebuilt: each choice as {index, message: {role, content}, finish_reason}, so the upstream\'s logprobs never reach the client (and reasoning_content and tool_calls would not either: the same request on the proxy route keeps them); curl likewise' },
    'gateway.stream.passed-on': { verdict: 'pass', why: 'each chunk is rebuilt but keeps its delta whole, the finish_reason and the usage (adding `provider`, dropping a choice\'s logprobs, which this upstream streams as null): content and finish_reason as the upstream streamed them' },
    'gateway.usage.passed-on': { verdict: 'fail', why: 'the body\'s usage is rebuilt as prompt_tokens, completion_tokens and total_tokens only: prompt_cache_hit_tokens and prompt_cache_miss_tokens (what is billed) never reach the client; a stream\'s usage is passed on whole' },
    'gateway.error.status-passed-on': { verdict: 'pass', why: 'a 400, a 429 and a 500 reach the client with the upstream\'s status, each asked once' },
    'gateway.error.body-passed-on': { verdict: 'fail', why: 'every upstream error (400, 401, 429, 500) reaches the client as {"error":{"message":"Invalid response received from deepseek: <the upstream body>","type":null,"param":null,"code":null},"provider":"deepseek"}: type and code lost, the message wrapped' },
    'gateway.error.retry-after-passed-on': { verdict: 'pass', why: 'the 429 reaches the client with Retry-After: 1' },
    'gateway.traffic.no-4xx-resent': { verdict: 'pass', why: 'a 400 is sent upstream once (no retries unless configured)' },
    'gateway.stream.not-held': { verdict: 'pass', why: 'each event reaches the client before the upstream sends the next' },
    'gateway.stream.cut-not-finished': { verdict: 'pass', why: 'the upstream broke off after two events; the client got those two, with no finish_reason and no [DONE]' },

    // Under load (--load 16) and answers crossed.
    'answer.requests.not-crossed': { verdict: 'pass', why: 'the eight prompts sent at once count 13, 16, 22, 34, 58, 106, 202 and 392 prompt tokens, the upstream\'s counts for each (upstream.json; the provider drops stream_options, but the upstream streams its usage anyway and the rebuilt chunks keep it), and the shortest and longest count 13 and 392 sent again; curl: the same burst through the gateway, the same counts' },
    'load.answers.conform': { verdict: 'pass', why: '56 answers under load (28 streamed) have the defects of the same requests at rest and no other: the missing cache fields of a body are there at rest too (schema.chat-completion.matches-schema reports them)' },
    'load.answers.not-crossed': { verdict: 'pass', why: 'each of the 56 answers under load (28 streamed) is the one the upstream gave its own request (paired by marker; an independent pairing of the recording agrees for all 61 requests of the phase, the 30 streams included: content and prompt_tokens). By hand, 16 and 64 distinct prompts at once (and 16 streams) through the gateway to an upstream taking 800 ms: every answer the same as its prompt alone; again for issue 47, 16 at once (8 streamed): each the answer and prompt count of its prompt at rest' },
    'load.excess.refused-as-described': { verdict: 'pass', why: 'all 56 requests under load were served: Portkey has no limit or queue of its own (by hand 64 at once reached the upstream together). Not shown by this recording, since the harness\'s upstream took all 16: an upstream 429 under load reaches the client as 429 with Retry-After but with type null (see schema.error-envelope.matches-schema), which this check would fail' },
    'load.streams.finished': { verdict: 'pass', why: '28 streams under load each end with a finish_reason and [DONE]; by hand 16 streams at once, all finished' },
    'load.requests.none-hung': { verdict: 'pass', why: 'all 61 requests of the phase answered, the slowest in 154 ms when recorded' },
    'load.endpoint.recovers': { verdict: 'pass', why: 'nothing was refused under load (the harness\'s upstream took all 16 in flight; Portkey has no limit of its own), and the request after the peak was answered 200 at once: 8 ms after it when recorded; by hand, 6 ms after 16 at once' },

    // Passed on, or unchanged by what the provider drops.
    'answer.created.unix-seconds-near-clock': { verdict: 'pass', why: '`created` is the upstream\'s, kept by the transform' },
    'answer.model.names-a-model-of-the-service': { verdict: 'pass', why: '' },
    'answer.stream-created.unix-seconds-near-clock': { verdict: 'pass', why: '' },
    'answer.stream-model.names-a-model-of-the-service': { verdict: 'pass', why: '' },
    'balance.spending.granted-first': { verdict: 'pass', why: 'GET /v1/user/balance is Portkey\'s proxy route, forwarded to the custom host\'s /user/balance' },
    'balance.total.equals-granted-plus-topped-up': { verdict: 'pass', why: '' },
    'bases.v1.same-models': { verdict: 'pass', why: '' },
    'conversation.assistant-turns.answered': { verdict: 'pass', why: '' },
    'conversation.history.answer-uses-history-sent': { verdict: 'pass', why: '' },
    'endpoint.chat-completions-on-base-url.served': { verdict: 'pass', why: '' },
    'endpoint.chat-completions-on-beta.served': { verdict: 'pass', why: '/v1/beta/chat/completions: the proxy route, forwarded to the custom host\'s /beta/chat/completions' },
    'endpoint.chat-completions-on-v1.served': { verdict: 'pass', why: '/v1/v1/chat/completions: the proxy route' },
    'endpoint.fim-completions-on-beta.served': { verdict: 'pass', why: '' },
    'endpoint.list-models-on-base-url.served': { verdict: 'pass', why: 'GET /v1/models is forwarded to the custom host\'s /models' },
    'endpoint.list-models-on-v1.served': { verdict: 'pass', why: '' },
    'endpoint.messages-on-messages-base-url.served': { verdict: 'pass', why: '/v1/anthropic/v1/messages: the proxy route, verbatim' },
    'endpoint.user-balance-on-base-url.served': { verdict: 'pass', why: '' },
    'endpoint.user-balance-on-v1.served': { verdict: 'pass', why: '' },
    'messages.error.unknown-model-refused-with-envelope': { verdict: 'pass', why: 'the messages format goes through the proxy route: the upstream\'s refusal verbatim' },
    'models.list.lists-current-models': { verdict: 'pass', why: '' },
    'models.list.names-model-ids': { verdict: 'pass', why: '' },
    'property.invalid-messages-classes.refused-with-spec-status': { verdict: 'pass', why: 'the messages format is the proxy route\'s: the upstream\'s refusals verbatim' },
    'request.frequency-penalty.accepted-within-bounds': { verdict: 'pass', why: '' },
    'request.max-tokens.accepted-within-bounds': { verdict: 'pass', why: '' },
    'request.presence-penalty.accepted-within-bounds': { verdict: 'pass', why: '' },
    'request.reasoning-effort.accepted-within-bounds': { verdict: 'pass', why: 'answered 200 (the value itself is dropped: gateway.request.parameters-passed-on)' },
    'request.stop.accepted-within-bounds': { verdict: 'pass', why: '' },
    'request.temperature.accepted-within-bounds': { verdict: 'pass', why: '' },
    'request.top-logprobs.accepted-within-bounds': { verdict: 'pass', why: '' },
    'rule.chat.max-tokens.length': { verdict: 'pass', why: '' },
    'rule.chat.response-format.json-output': { verdict: 'pass', why: 'response_format is on the deepseek allow-list' },
    'rule.chat.response-format.json-output.streamed': { verdict: 'pass', why: '' },
    'rule.chat.stop.not-in-output': { verdict: 'pass', why: '' },
    'rule.chat.thinking.with-tools': { verdict: 'pass', why: 'accepted (200): the rule asks no more; both fields are dropped' },
    'rule.chat.tool-choice.auto-model-decides': { verdict: 'pass', why: 'with "auto" any answer is the model\'s choice (tools never reach the upstream)' },
    'rule.prefix.continues-prefix': { verdict: 'pass', why: 'the beta base is the proxy route: `prefix` reaches the upstream' },
    'rule.prefix.continues-prefix.streamed': { verdict: 'pass', why: '' },
    'rule.prefix.without-prefix-flag': { verdict: 'pass', why: 'on the beta base (proxy route): the upstream\'s 422 verbatim' },
    'schema.balance.matches-schema': { verdict: 'pass', why: '' },
    'schema.messages-response.matches-schema': { verdict: 'pass', why: '' },
    'schema.model-list.matches-schema': { verdict: 'pass', why: '' },
    'schema.stream-chunk.matches-schema': { verdict: 'pass', why: 'the rebuilt chunks keep what the description lists (an added `provider` is not judged without --strict)' },
    'stateless.history.not-kept': { verdict: 'pass', why: '' },
    'stream.assembled.honours-max-tokens': { verdict: 'pass', why: '' },
    'stream.assembled.honours-stop': { verdict: 'pass', why: '' },
    'stream.chunks.carry-a-choice': { verdict: 'pass', why: '' },
    'stream.chunks.finish-reason-only-final': { verdict: 'pass', why: '' },
    'stream.chunks.one-id': { verdict: 'pass', why: '' },
    'stream.events.all-parse': { verdict: 'pass', why: '' },
    'stream.events.done-last': { verdict: 'pass', why: '' },
    'stream.events.final-chunk-has-finish-reason': { verdict: 'pass', why: '' },
    'stream.events.first-chunk-has-role': { verdict: 'pass', why: '' },
    'stream.response.content-type-is-event-stream': { verdict: 'pass', why: '' },
    'usage.stream-cache.hit-plus-miss-equals-prompt': { verdict: 'pass', why: 'a stream\'s usage is passed on whole, cache fields included' },
    'usage.stream-total.equals-prompt-plus-completion': { verdict: 'pass', why: '' },
    'usage.total.equals-prompt-plus-completion': { verdict: 'pass', why: '' },

    // What the deepseek provider breaks: errors rewritten.
    'auth.malformed-key.returns-401': { verdict: 'fail', why: `401 kept, envelope broken: ${NULL_TYPE}` },
    'auth.missing-key.returns-401': { verdict: 'fail', why: 'without a key Portkey sends `Authorization: Bearer undefined` upstream (a listener behind it saw it); the upstream\'s 401 reaches the client with type null, as every error does through this provider' },
    'auth.wrong-key.returns-401': { verdict: 'fail', why: '401 with type null (curl: {"error":{"message":"Invalid response received from deepseek: {\\"error\\":{\\"message\\":\\"invalid API key\\",...}}","type":null,"param":null,"code":null},"provider":"deepseek"})' },
    'schema.error-envelope.matches-schema': { verdict: 'fail', why: `error.type is null in every error: ${NULL_TYPE}` },
    'schema.error-envelope.matches-unstated-shapes': { verdict: 'fail', why: 'advisory: error.code is null, where the sample gives a string' },
    'rule.chat.messages.non-empty': { verdict: 'fail', why: `\`messages: []\` is 400: ${NULL_TYPE}` },
    'rule.chat.model.valid-id': { verdict: 'fail', why: 'an unknown model is 400 (the upstream\'s), with type null' },
    'rule.chat.required-field.missing': { verdict: 'fail', why: 'both cases 400 (the upstream\'s), with type null' },
    'rule.chat.top-logprobs.requires-logprobs': { verdict: 'fail', why: 'top_logprobs without logprobs reaches the upstream (logprobs is not filled in), 400 with type null' },
    'rule.chat.wrong-type': { verdict: 'fail', why: '400 (the upstream\'s), with type null' },
    'rule.prefix.requires-beta-base': { verdict: 'fail', why: 'a prefix message on /v1/chat/completions reaches the upstream whole, its 400 with type null' },
    'request.max-tokens.refused-beyond-bounds': { verdict: 'fail', why: 'max_tokens 384001 (no maximum in the provider) reaches the upstream, 400 with type null' },
    'request.stop.refused-beyond-bounds': { verdict: 'fail', why: 'five stop sequences reach the upstream, 400 with type null' },
    'property.invalid-requests.refused-with-spec-status': { verdict: 'fail', why: 'max_tokens 384001 reaches the upstream and is refused 400, but with type null (the "Invalid response received from deepseek" wrapper), shrunk to {"model":"svc-v4-flash","messages":[{"role":"user","content":"dignissim"}],"max_tokens":384001}; curl likewise' },

    // What the deepseek provider breaks: values clamped, fields dropped, the body rebuilt.
    'request.frequency-penalty.refused-beyond-bounds': { verdict: 'fail', why: '-2.01 and 2.01 reach the upstream as -2 and 2, answered 200 (curl, the upstream\'s log)' },
    'request.presence-penalty.refused-beyond-bounds': { verdict: 'fail', why: '-2.01 and 2.01 clamped to -2 and 2, answered 200' },
    'request.temperature.refused-beyond-bounds': { verdict: 'fail', why: '-0.01 and 2.01 clamped to 0 and 2, answered 200' },
    'request.top-logprobs.refused-beyond-bounds': { verdict: 'fail', why: '-1 and 21 reach the upstream as 0 and 20 (the deepseek provider\'s top_logprobs min 0, max 20), answered 200; "top_logprobs 0 to 20"' },
    'request.reasoning-effort.refused-beyond-bounds': { verdict: 'fail', why: 'a reasoning_effort off the list is dropped (not on the deepseek allow-list), answered 200' },
    'property.invalid-classes.refused-with-spec-status': { verdict: 'fail', why: 'of the 26 classes sent, none is refused as described: 15 reach the upstream and are refused 400 with type null (the wrapper); `messages` "wrong-type" is 500 {"status":"failure","message":"Something went wrong"} from Portkey itself (the messages transform calls .map on a string; never sent upstream); 10 are answered 200 because the provider drops the field before the upstream could refuse it: tools "wrong-type", tools.0.type off its list, tool_choice 12345 and "not-a-listed-value", thinking "wrong-type" and thinking.type off its list, reasoning_effort 12345, a tool without type, function or name (curl through a logging proxy: the upstream got the request without them)' },
    'property.valid-requests.accepted': { verdict: 'fail', why: 'a valid request is answered 200 with usage of three fields: shrunk to {"model":"svc-v4-flash","messages":[{"role":"user","content":"À"}]}, the upstream sent prompt_cache_hit_tokens 0 and prompt_cache_miss_tokens 3 too (upstream.json; curl likewise) and the deepseek provider\'s transform rebuilt usage without them. The same defect as schema.chat-completion.matches-schema and gateway.usage.passed-on, and this check\'s verdict when recorded before issue 47' },
    'schema.chat-completion.matches-schema': { verdict: 'fail', why: 'usage lacks prompt_cache_hit_tokens and prompt_cache_miss_tokens: the deepseek transform rebuilds usage from three fields (curl: the upstream sent both)' },
    'rule.chat.invalid-json': { verdict: 'fail', why: 'a body that is not JSON is 500 {"status":"failure","message":"Something went wrong"} from Portkey itself, never sent upstream (curl); "invalid JSON" is 400' },
    'bases.v1.chat-parity': { verdict: 'fail', why: '{base_url}/v1/chat/completions is Portkey\'s /v1/v1/chat/completions, the proxy route: the upstream\'s body verbatim (reasoning_content, logprobs, cache fields, no `provider`), while /v1/chat/completions rebuilds it (curl: the same request on both); "{base_url}/v1 is a compatibility alias with identical behaviour"' },
    'rule.chat.thinking.enabled-carries-reasoning': { verdict: 'fail', why: '`thinking` is dropped (and the transform keeps only role and content): no reasoning_content' },
    'stream.reasoning.deltas-when-thinking': { verdict: 'fail', why: '`thinking` is dropped: no reasoning deltas' },
    'rule.chat.tool-choice.required-forces-call': { verdict: 'fail', why: '`tools` and `tool_choice` never reach the upstream: the reply calls no tool (curl: the upstream got neither)' },
    'rule.chat.tool-choice.required-forces-call.streamed': { verdict: 'fail', why: 'the same, streamed' },
    'rule.chat.tool-choice.named-forces-function': { verdict: 'fail', why: 'tool_choice naming get_time never reaches the upstream: no call' },
    'rule.chat.tool-choice.named-forces-function.streamed': { verdict: 'fail', why: 'the same, streamed' },

    // Not judged, each for a defect another check reports.
    'answer.tool-call.names-an-offered-function': { verdict: 'skip', why: 'inconclusive: no tool call (tools dropped); rule.chat.tool-choice.required-forces-call fails on it' },
    'answer.stream-tool-call.names-an-offered-function': { verdict: 'skip', why: 'inconclusive: the same, streamed' },
    'conversation.thinking-plain-turns.answered': { verdict: 'pass', why: 'the conversation with the plain assistant turn is answered 200 with thinking enabled and disabled; `thinking` never reaches the upstream in either mode (not on the deepseek allow-list: upstream.json), so the upstream answers the plain turns; the dropped field is rule.chat.thinking.enabled-carries-reasoning\'s failure' },
    'conversation.tool-round-trip.answers-tool-result': { verdict: 'skip', why: 'inconclusive: the forced call never comes (tools dropped), so there is no tool result to send (the harness names the schema\'s usage defect as the cause; the call is missing because rule.chat.tool-choice.required-forces-call fails)' },
    'conversation.tool-round-trip.answers-tool-result.thinking-disabled': { verdict: 'skip', why: 'inconclusive: the forced get_weather call never comes (tools, tool_choice and thinking dropped: the upstream got the question alone and answered text, upstream.json), so there is no result to send back. The harness names the schema\'s usage defect as the cause (its hand-off takes any must break of the body); the call is missing because rule.chat.tool-choice.named-forces-function fails' },
    'rule.chat.tool-choice.none-forbids-tools': { verdict: 'skip', why: 'inconclusive: with tools dropped "auto" calls no tool either, so "none" shows nothing' },
    'rule.chat.tool-choice.none-forbids-tools.streamed': { verdict: 'skip', why: 'inconclusive: the same, streamed' },
    'rule.chat.tools.finish-reason-tool-calls': { verdict: 'skip', why: 'inconclusive: no tool call; rule.chat.tool-choice.required-forces-call fails on it' },
    'stream.assembled.tool-calls-add-up': { verdict: 'skip', why: 'inconclusive: no tool call in the stream (finish_reason "stop")' },
    'rule.chat.reasoning-effort.none-equals-disabled': { verdict: 'skip', why: 'inconclusive: thinking enabled gives no reasoning either (dropped), so none cannot be told from disabled' },
    'rule.chat.reasoning-effort.none-equals-disabled.streamed': { verdict: 'skip', why: 'inconclusive: the same, streamed' },
    'rule.chat.thinking.disabled-no-reasoning': { verdict: 'skip', why: 'inconclusive: thinking enabled gives no reasoning either' },
    'stream.reasoning.none-when-thinking-disabled': { verdict: 'skip', why: 'inconclusive: thinking enabled gives no reasoning either' },
    'usage.cache.hit-plus-miss-equals-prompt': { verdict: 'skip', why: 'inconclusive: the body\'s usage has no cache fields to add up; schema.chat-completion.matches-schema fails on it' },
    'caching.short-prompt.never-hits': { verdict: 'skip', why: 'inconclusive: the body\'s usage has no prompt_cache_hit_tokens: the provider rebuilds usage from three fields, though the upstream sent prompt_cache_hit_tokens 0 (curl: the same short prompt twice); schema.chat-completion.matches-schema fails on it. Replayed as recorded since 4bb0253c (a replay compares bodies without their gateway markers)' },
    'rule.balance.insufficient': { verdict: 'skip', why: 'not applicable: no key with an empty balance was named (--empty-balance-key-env)' },

    // What the clients make of it: each fed the recorded bytes, and against the running gateway (deepseek provider).
    'client.openai.chat': { verdict: 'pass', why: 'openai 6.49.0 handed the recorded completion (rebuilt by the provider: no logprobs, usage of three fields, `provider` added): content "Most most works reply then well clear. Results your here depends cases in.", finish_reason "stop", no tool calls, usage.total_tokens 25; live through the gateway a completion read whole' },
    'client.openai.stream': { verdict: 'pass', why: 'chat.completions.stream() handed the recorded stream assembles that text, finish_reason "stop"; live likewise' },
    'client.openai.stream-tool-calls': { verdict: 'skip', why: 'inconclusive: the tool-call stream makes no call (tools dropped; rule.chat.tool-choice.required-forces-call.streamed reports it); fed those bytes, and live, the client assembles no tool_calls and finish_reason "stop"' },
    'client.openai.error': { verdict: 'pass', why: 'the refusal of `messages: []` raises BadRequestError, status 400, its message "400 Invalid response received from deepseek: {...the upstream body...}" (type and code null): the client does not break, the upstream\'s words are inside the message; live the same' },
    'client.anthropic.messages': { verdict: 'pass', why: 'the messages format is the proxy route\'s, verbatim: @anthropic-ai/sdk reads the recorded reply\'s text and stop_reason; live likewise' },
    'client.anthropic.stream': { verdict: 'pass', why: 'messages.stream().finalMessage() on the recorded events: one text block, stop_reason "end_turn", 8 in and 17 out; live likewise' },
    'client.anthropic.error': { verdict: 'pass', why: 'the refusal of svc-no-such-model (proxy route, verbatim) raises BadRequestError, status 400, with the upstream\'s message; live the same' },
    'client.ai-sdk.chat': { verdict: 'pass', why: 'generateText handed the recorded completion: that text, finishReason "stop", inputTokens 8, outputTokens 17, no tool calls; live likewise' },
    'client.ai-sdk.stream': { verdict: 'pass', why: 'streamText handed the recorded stream: 17 text deltas adding up to that text, finish "stop", no error part; live likewise' },
    'client.ai-sdk.error': { verdict: 'pass', why: 'handed the recorded refusal (as the answer to a one-message prompt), generateText throws APICallError whose message is the wrapper "Invalid response received from deepseek: {...}"' },
    'client.langchain.chat': { verdict: 'pass', why: 'ChatOpenAI.invoke handed the recorded completion: that text, finish_reason "stop", usage_metadata.total_tokens 25; live likewise' },
    'client.langchain.stream': { verdict: 'pass', why: 'the recorded stream adds up to that text, finish_reason "stop"; live likewise' },
    'client.langchain.error': { verdict: 'pass', why: 'invoke([]) handed the recorded refusal throws BadRequestError, status 400, "400 Invalid response received from deepseek: {...}"; live the same' },
  },
};
export default pins;
