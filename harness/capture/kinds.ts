/** What a captured body can be judged as: each kind names the spec object it is judged against. */
export const KINDS = [
  'chat_completion',
  'chat_completion_chunk',
  'model_list',
  'balance',
  'fim_completion',
  'messages_response',
  'error_envelope',
] as const;

export type Kind = (typeof KINDS)[number];

export function isKind(value: string): value is Kind {
  return (KINDS as readonly string[]).includes(value);
}
