import type { RecordedThirdParty } from './recorded.ts';

/**
 * The LiteLLM proxy 1.81.0 with its OpenAI-compatible provider (`openai/`), with the harness as its upstream (issue 33):
 * recorded by scripts/third-party/litellm.sh openai gateway, both sides of every exchange
 * (upstream.json). Each verdict established by hand: fixtures/litellm-FINDINGS.md, "As a gateway".
 */
const pins: RecordedThirdParty = {
  name: 'litellm-openai-gateway',
  fixtures: 'fixtures/litellm-openai-gateway',
  args: ['--only', 'gateway'],
  exitCode: 1,
  verdicts: {
    'gateway.request.parameters-passed-on': { verdict: 'pass', why: 'every parameter of the sampling, tools and JSON requests reaches the upstream as sent; a request with `thinking` or `reasoning_effort` is refused by LiteLLM itself (400 UnsupportedParamsError), which is no change' },
    'gateway.answer.passed-on': { verdict: 'pass', why: 'content, tool calls, finish_reason and logprobs as the upstream sent them; the thinking request is refused by LiteLLM (400), so not compared' },
    'gateway.stream.passed-on': { verdict: 'pass', why: 'streamed as the upstream streamed; the thinking request is refused by LiteLLM (400)' },
    'gateway.usage.passed-on': { verdict: 'fail', why: 'prompt_cache_hit_tokens and prompt_cache_miss_tokens of the streamed usage never reach the client (the usage numbers themselves are passed on)' },
    'gateway.error.status-passed-on': { verdict: 'pass', why: 'a 400 reaches the client as 400; a 429 is asked again after Retry-After and answered; a 500 is asked again' },
    'gateway.error.body-passed-on': { verdict: 'fail', why: 'the error is reworded: code "400" and the message "litellm.BadRequestError: OpenAIException - ... Received Model Group=..."; the type is kept' },
    'gateway.error.retry-after-passed-on': { verdict: 'pass', why: 'LiteLLM asks the upstream again about 1.2 s after a 429 whose Retry-After said 1 s' },
    'gateway.traffic.no-4xx-resent': { verdict: 'fail', why: 'a 400 from the upstream is sent three times' },
    'gateway.stream.not-held': { verdict: 'pass', why: 'each event reaches the client before the upstream sends the next' },
    'gateway.stream.cut-not-finished': { verdict: 'fail', why: 'an upstream stream that breaks off reaches the client with finish_reason "stop" and `data: [DONE]` (curl against a server that cuts after two events; streaming_handler.py finish_reason_handler defaults to "stop")' },
    'gateway.messages.error-status-passed-on': { verdict: 'skip', why: 'skip: not recorded: the gateway.messages.* checks (issue 49, item 3) came after this recording; its messages-format traffic is not recorded here' },
    'gateway.messages.max-tokens-passed-on': { verdict: 'skip', why: 'skip: not recorded: the gateway.messages.* checks (issue 49, item 3) came after this recording; its messages-format traffic is not recorded here' },
  },
};
export default pins;
