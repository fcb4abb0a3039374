import type { RecordedThirdParty } from './recorded.ts';

/**
 * The Portkey AI gateway 1.15.2 (@portkey-ai/gateway from npm, its `openai` provider with a custom
 * host) with the harness as its upstream (issue 33): recorded by scripts/third-party/portkey.sh, both
 * sides of every exchange (upstream.json). Each verdict established by hand: fixtures/portkey-FINDINGS.md.
 */
const pins: RecordedThirdParty = {
  name: 'portkey-gateway',
  fixtures: 'fixtures/portkey-gateway',
  args: ['--only', 'gateway'],
  exitCode: 1,
  verdicts: {
    'gateway.request.parameters-passed-on': { verdict: 'fail', why: '`thinking` is dropped (outside the openai provider\'s allow-list) and a temperature of 3 reaches the upstream as 2 (clamped to the provider\'s range): the upstream answers 200 to a request the client never sent' },
    'gateway.answer.passed-on': { verdict: 'pass', why: 'content, tool calls, finish_reason and logprobs as the upstream sent them' },
    'gateway.stream.passed-on': { verdict: 'pass', why: 'with the preload, the stream is the upstream\'s, byte for byte but for id and created' },
    'gateway.usage.passed-on': { verdict: 'pass', why: 'every usage number, cache fields included, streamed and not' },
    'gateway.error.status-passed-on': { verdict: 'pass', why: 'a 400, a 429 and a 500 reach the client as the upstream gave them (no retries unless configured)' },
    'gateway.error.body-passed-on': { verdict: 'fail', why: 'the message is prefixed "openai error: " (and `provider` added); type and code are kept' },
    'gateway.error.retry-after-passed-on': { verdict: 'pass', why: 'the 429 reaches the client with Retry-After: 1' },
    'gateway.traffic.no-4xx-resent': { verdict: 'pass', why: 'a 400 is sent upstream once' },
    'gateway.stream.not-held': { verdict: 'pass', why: 'each event reaches the client before the upstream sends the next' },
    'gateway.stream.cut-not-finished': { verdict: 'pass', why: 'a stream the upstream broke off reaches the client broken off, with no finish_reason and no [DONE]' },
  },
};
export default pins;
