import { bench, describe } from 'vitest';
import { validatorFor } from '#harness/derive/validators/index.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { largestMaxOutput, syntheticEvents } from '#harness/testing/syntheticStream.ts';

// Responses judged per second by the compiled validators, beside JSON.parse alone on the same text.
// Bodies in the shapes a run judges: a completion (as the emulator and the real service write it),
// a stream chunk (the synthetic stream's), a model list and an error envelope.
const { spec } = loadSpec();
const { model } = largestMaxOutput(spec);

const completion = JSON.stringify({
  id: 'chatcmpl-930c60df-bf64-41c9-a88e-3ec75f81e00e',
  object: 'chat.completion',
  created: 1742637897,
  model,
  choices: [{ index: 0, message: { role: 'assistant', content: 'Hello! How can I help you today?'.repeat(4), reasoning_content: '' }, logprobs: null, finish_reason: 'stop' }],
  usage: { prompt_tokens: 11, completion_tokens: 19, total_tokens: 30, prompt_cache_hit_tokens: 0, prompt_cache_miss_tokens: 11, prompt_tokens_details: { cached_tokens: 0 } },
  system_fingerprint: 'fp_3a5770e1b4_prod0225',
});
/** The second event of a synthetic stream: one content token. */
const chunk = [...syntheticEvents({ tokens: 1, model })][1]!.slice('data: '.length).trim();
const modelList = JSON.stringify({ object: 'list', data: Object.keys(spec.models).map((id) => ({ id, object: 'model', owned_by: 'svc' })) });
const errorEnvelope = JSON.stringify({ error: { message: 'Invalid max_tokens value, the valid range of max_tokens is [1, 384000]', type: 'invalid_request_error', param: null, code: 'invalid_request_error' } });

const BODIES: [string, string, string][] = [
  ['chat_completion', completion, 'a completion'],
  ['chat_completion_chunk', chunk, 'a stream chunk'],
  ['model_list', modelList, 'a model list'],
  ['error_envelope', errorEnvelope, 'an error envelope'],
];

for (const [object, text, what] of BODIES) {
  const judge = validatorFor(spec, object);
  const strict = validatorFor(spec, object, { profile: 'strict' });
  // A benchmark of a body the validator rejects would time the error path, not judging.
  if (judge(JSON.parse(text)).some((v) => v.level === 'must')) throw new Error(`${what} breaks a must of the spec: fix the benchmark body`);
  describe(`judging ${what} (${object}, ${text.length} bytes)`, () => {
    bench('JSON.parse alone (the floor)', () => {
      JSON.parse(text);
    });
    bench('JSON.parse + compiled validator, default profile', () => {
      judge(JSON.parse(text));
    });
    bench('JSON.parse + compiled validator, strict profile', () => {
      strict(JSON.parse(text));
    });
  });
}
