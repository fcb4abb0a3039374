import { bench, describe } from 'vitest';
import { loadSpec } from '#harness/spec/load.ts';
import { validatorFor } from './registry.ts';

// A completion body shaped like the real ones (extra fields included), about 600 bytes.
const body = JSON.stringify({
  id: '930c60df-bf64-41c9-a88e-3ec75f81e00e',
  object: 'chat.completion',
  created: 1742637897,
  model: 'svc-v4-flash',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Hello! How can I help you today?'.repeat(4) }, logprobs: null, finish_reason: 'stop' }],
  usage: { prompt_tokens: 11, completion_tokens: 19, total_tokens: 30, prompt_tokens_details: { cached_tokens: 0 }, prompt_cache_hit_tokens: 0, prompt_cache_miss_tokens: 11 },
  system_fingerprint: 'fp_3a5770e1b4_prod0225',
});

const { spec } = loadSpec();
const judgeDefault = validatorFor(spec, 'chat_completion');
const judgeStrict = validatorFor(spec, 'chat_completion', { profile: 'strict' });

describe('judging a completion body', () => {
  bench('JSON.parse alone (the floor)', () => {
    JSON.parse(body);
  });
  bench('JSON.parse + compiled validator, default profile', () => {
    judgeDefault(JSON.parse(body));
  });
  bench('JSON.parse + compiled validator, strict profile', () => {
    judgeStrict(JSON.parse(body));
  });
});
