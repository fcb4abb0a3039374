import type { Pinned } from './verdicts.ts';

/**
 * The streamed twins of the refusal checks (issue 47, item 1): recordings made before they existed
 * hold no exchange of theirs, so a replay skips each as not recorded. Pinned so in every recording
 * of the chat endpoint's checks until it is recorded again; then each twin's verdict is established
 * by hand, as every other.
 */
const TWINS = [
  'property.invalid-classes.refused-with-spec-status.streamed',
  'request.frequency-penalty.refused-beyond-bounds.streamed',
  'request.max-tokens.refused-beyond-bounds.streamed',
  'request.presence-penalty.refused-beyond-bounds.streamed',
  'request.reasoning-effort.refused-beyond-bounds.streamed',
  'request.stop.refused-beyond-bounds.streamed',
  'request.temperature.refused-beyond-bounds.streamed',
  'request.top-logprobs.refused-beyond-bounds.streamed',
  'rule.balance.insufficient.streamed',
  'rule.chat.messages.non-empty.streamed',
  'rule.chat.model.valid-id.streamed',
  'rule.chat.required-field.missing.streamed',
  'rule.chat.top-logprobs.requires-logprobs.streamed',
  'rule.chat.wrong-type.streamed',
  'rule.prefix.requires-beta-base.streamed',
  'rule.prefix.without-prefix-flag.streamed',
];

export const STREAMED_TWINS_NOT_RECORDED: Record<string, Pinned> = Object.fromEntries(
  TWINS.map((id) => [id, { verdict: 'skip', why: 'not recorded: the recording was made before refusals were sent streamed too; record it again to judge the twin' }]),
);
