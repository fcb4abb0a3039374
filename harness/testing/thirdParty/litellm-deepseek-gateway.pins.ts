import type { RecordedThirdParty } from './recorded.ts';

/**
 * The LiteLLM proxy 1.81.0 with its `deepseek` provider, with the harness as its upstream (issue 33):
 * recorded by scripts/third-party/litellm.sh deepseek gateway, both sides of every exchange
 * (upstream.json). Each verdict established by hand: fixtures/litellm-FINDINGS.md, "As a gateway".
 */
const pins: RecordedThirdParty = {
  name: 'litellm-deepseek-gateway',
  fixtures: 'fixtures/litellm-deepseek-gateway',
  args: ['--only', 'gateway'],
  exitCode: 1,
  verdicts: {
    'gateway.request.parameters-passed-on': { verdict: 'fail', why: '`thinking` and `reasoning_effort` never reach the upstream: the deepseek provider drops them, and the answer comes without reasoning (the same request straight to the emulator reasons)' },
    'gateway.answer.passed-on': { verdict: 'pass', why: 'content, tool calls (ids, names, arguments), finish_reason and logprobs of a body as the upstream sent them' },
    'gateway.stream.passed-on': { verdict: 'pass', why: 'streamed content, tool calls and finish_reason as the upstream streamed them' },
    'gateway.usage.passed-on': { verdict: 'fail', why: 'the streamed usage is LiteLLM\'s own count (prompt 28, completion 27, total 55 where the upstream reported 11, 32, 43) and has no cache fields; the body\'s usage is passed on whole' },
    'gateway.error.status-passed-on': { verdict: 'pass', why: 'a 400 reaches the client as 400; a 429 is asked again after Retry-After and answered; a 500 is asked again' },
    'gateway.error.body-passed-on': { verdict: 'fail', why: 'the error is reworded: type null, code "400", and the message "litellm.BadRequestError: DeepseekException - {...}" wrapping the upstream\'s body' },
    'gateway.error.retry-after-passed-on': { verdict: 'pass', why: 'LiteLLM asks the upstream again about 1.2 s after a 429 whose Retry-After said 1 s' },
    'gateway.traffic.no-4xx-resent': { verdict: 'fail', why: 'a 400 from the upstream is sent three times' },
    'gateway.stream.not-held': { verdict: 'pass', why: 'each event reaches the client before the upstream sends the next' },
    'gateway.stream.cut-not-finished': { verdict: 'fail', why: 'an upstream stream that breaks off reaches the client with finish_reason "stop" and `data: [DONE]` (curl against a server that cuts after two events; streaming_handler.py finish_reason_handler defaults to "stop")' },
    'gateway.messages.error-status-passed-on': { verdict: 'skip', why: 'skip: not recorded: the gateway.messages.* checks (issue 49, item 3) came after this recording; its messages-format traffic is not recorded here' },
    'gateway.messages.max-tokens-passed-on': { verdict: 'skip', why: 'skip: not recorded: the gateway.messages.* checks (issue 49, item 3) came after this recording; its messages-format traffic is not recorded here' },
  },
};
export default pins;
