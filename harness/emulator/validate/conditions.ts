import type { Condition, Spec } from '#harness/spec/model.ts';
import { deepEqual, getPath, isPresent, isRecord, show } from './json.ts';
import type { RequestSite } from './site.ts';

/**
 * Conditions of rules.yaml against a request body. Conditions that need state or that describe
 * requests for test generators rather than match them (an unknown model, a wrong type, a value out of
 * bounds or above a maximum, an invalid JSON body, a time after retirement, an account's balance)
 * cannot be decided from the body: field validation or the caller handles them.
 */
const UNDECIDABLE: readonly (keyof Condition)[] = ['unknown_model', 'wrong_type', 'out_of_bounds', 'above', 'body', 'after', 'account'];
const FIELD_TESTS: readonly (keyof Condition)[] = ['present', 'equals', 'not_equals', 'in'];

export function isDecidable(c: Condition): boolean {
  return !UNDECIDABLE.some((key) => Object.hasOwn(c, key));
}

function has(c: Condition, key: keyof Condition): boolean {
  return Object.hasOwn(c, key);
}

/** Whether a decidable condition holds for the body at the site. Every test the condition carries must hold. */
export function conditionHolds(spec: Spec, c: Condition, body: Record<string, unknown>, site: RequestSite): boolean {
  const tests: boolean[] = [];
  if (c.field !== undefined) {
    const value = getPath(body, c.field);
    if (has(c, 'present')) tests.push(isPresent(value) === c.present);
    if (has(c, 'equals')) tests.push(deepEqual(value, c.equals));
    if (has(c, 'not_equals')) tests.push(!deepEqual(value, c.not_equals));
    if (c.in !== undefined) tests.push(c.in.some((v) => deepEqual(value, v)));
    if (!FIELD_TESTS.some((key) => has(c, key))) throw new Error(`rule condition ${JSON.stringify(c)} names a field but no test the emulator knows`);
  }
  if (c.last_message !== undefined) {
    const last = lastMessage(body);
    const want = c.last_message;
    let holds = last !== undefined && last.role === want.role;
    if (holds && want.prefix !== undefined) {
      // true and false are the values written in the body; `absent` is a message without the flag.
      holds = want.prefix === 'absent' ? !isPresent(last!.prefix) : last!.prefix === want.prefix;
    }
    tests.push(holds);
  }
  if (c.any_message_has !== undefined) tests.push(messageWith(body, c.any_message_has) !== undefined);
  if (c.base !== undefined) tests.push(site.base === c.base);
  if (c.base_not !== undefined) tests.push(site.base !== c.base_not);
  if (c.model !== undefined) tests.push(site.modelId === c.model);
  if (c.model_kind !== undefined) tests.push(site.modelId !== undefined && spec.models[site.modelId]?.kind === c.model_kind);
  if (tests.length === 0) throw new Error(`rule condition ${JSON.stringify(c)} has no test the emulator knows`);
  return tests.every(Boolean);
}

function messages(body: Record<string, unknown>): unknown[] {
  return Array.isArray(body.messages) ? body.messages : [];
}

function lastMessage(body: Record<string, unknown>): Record<string, unknown> | undefined {
  const all = messages(body);
  const last = all[all.length - 1];
  return isRecord(last) ? last : undefined;
}

/** Index of the first message that carries `name` (null counts as not carrying it). */
function messageWith(body: Record<string, unknown>, name: string): number | undefined {
  const i = messages(body).findIndex((m) => isRecord(m) && isPresent(m[name]));
  return i < 0 ? undefined : i;
}

/** The request field a holding condition points at (dotted), or undefined when it is not about a field. */
export function conditionParam(c: Condition, body: Record<string, unknown>): string | undefined {
  if (c.field !== undefined) return c.field;
  if (c.last_message !== undefined) {
    const i = messages(body).length - 1;
    return c.last_message.prefix !== undefined ? `messages.${i}.prefix` : `messages.${i}.role`;
  }
  if (c.any_message_has !== undefined) {
    const i = messageWith(body, c.any_message_has);
    return i === undefined ? 'messages' : `messages.${i}.${c.any_message_has}`;
  }
  if (c.model !== undefined || c.model_kind !== undefined) return 'model';
  return undefined;
}

/** A holding condition in words, for the refusal message. */
export function describeCondition(c: Condition, body: Record<string, unknown>, site: RequestSite): string {
  const parts: string[] = [];
  if (c.field !== undefined) {
    const f = `\`${c.field}\``;
    const value = getPath(body, c.field);
    if (c.present === true) parts.push(`${f} is set`);
    if (c.present === false) parts.push(`${f} is missing`);
    if (has(c, 'equals')) parts.push(`${f} is ${show(c.equals)}`);
    if (has(c, 'not_equals')) parts.push(value === undefined ? `${f} is not set` : `${f} is ${show(value)}, not ${show(c.not_equals)}`);
    if (c.in !== undefined) parts.push(`${f} is ${show(value)}`);
  }
  if (c.last_message !== undefined) {
    const prefix = c.last_message.prefix === undefined ? '' : c.last_message.prefix === 'absent' ? ' without `prefix`' : ` with \`prefix\` = ${String(c.last_message.prefix)}`;
    parts.push(`the last message has role ${c.last_message.role}${prefix}`);
  }
  if (c.any_message_has !== undefined) parts.push(`a message carries \`${c.any_message_has}\``);
  if (c.base !== undefined) parts.push(`the request came in on base ${site.base}`);
  if (c.base_not !== undefined) parts.push(`the request came in on base ${site.base}, not ${c.base_not}`);
  if (c.model !== undefined) parts.push(`\`model\` is ${c.model}`);
  if (c.model_kind !== undefined) parts.push(`\`model\` is a ${c.model_kind} model`);
  return parts.join(' and ');
}
