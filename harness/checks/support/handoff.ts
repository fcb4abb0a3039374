import type { Failure } from '#harness/core/outcome.ts';
import type { Violation } from '#harness/derive/validators/index.ts';
import type { CheckContext, CheckOutcome, CheckResponse } from '../context.ts';
import { failure, schemaFailure, skip, statusDefect } from './outcome.ts';

/**
 * The one way a check leaves a defect to the check that judges it (runner/handoff.ts settles it):
 * the failure it met, naming its owner as data. Where the owner fails on that answer (or with the
 * same defect), this result becomes a skip naming it; where it does not, the failure stands. A
 * check never says "another check judges that" in words alone: a reason naming a check is a hand-off.
 */
export function handOff(owner: string, ...failures: Failure[]): CheckOutcome {
  return { verdict: 'fail', failures: failures.map((f) => ownedBy(owner, f)) };
}

/**
 * A defect left to a check that judges it on requests of its own (a rule's check: no call where
 * `tool_choice` is "required"; the stream checks: a stream that never ended): it stands where that
 * check fails on the same model.
 */
export function handOffOnModel(owner: string, ...failures: Failure[]): CheckOutcome {
  return { verdict: 'fail', failures: failures.map((f) => ({ ...f, ownedBy: owner })) };
}

/** A failure left to `owner` on its answer: for a check that hands defects to several owners at once. */
export const ownedBy = (owner: string, f: Failure): Failure => ({ ...f, ownedBy: owner, ownedOn: 'answer' });

/** The answer objects whose shape a schema check judges, by the subject of its id (checks/schema/responses.ts). */
export const SCHEMA_SUBJECTS = {
  chat_completion: 'chat-completion',
  chat_completion_chunk: 'stream-chunk',
  model_list: 'model-list',
  balance: 'balance',
  fim_completion: 'fim-completion',
  messages_response: 'messages-response',
  error_envelope: 'error-envelope',
} as const;

export type ShapedObject = keyof typeof SCHEMA_SUBJECTS;

/** The check that judges an answer object's shape at must. */
export const schemaCheckOf = (object: ShapedObject): string => `schema.${SCHEMA_SUBJECTS[object]}.matches-schema`;

/**
 * An answer that is not the object a check needs (no message, no content): its shape is the schema
 * check's, so where the schema breaks at must on what the check needs (at `path`, above it or
 * within it) the defect is handed there, as that violation; where it holds there the answer is
 * well-formed by it and still lacks what the check needs, which nothing else reports: the check
 * fails on it (`what`, at `path`), or, `otherwise`, it is a premise the description does not
 * require, or the defect of another check (a rule's, handed to it). A break elsewhere in the body
 * (usage without a required field, where a tool call is missing) is not why the check lacks it.
 */
export function shapeHandOff(ctx: CheckContext, object: ShapedObject, res: CheckResponse, body: unknown, what: string, path?: string, otherwise?: Premise | CheckOutcome): CheckOutcome {
  const broken = ctx.judge(object, body).filter((v) => v.level === 'must' && (path === undefined || onPath(violatedAt(v), path)));
  if (broken.length > 0) return handOff(schemaCheckOf(object), ...broken.slice(0, 1).map((v) => schemaFailure(v, res, `${what}: `)));
  if (otherwise !== undefined && 'verdict' in otherwise) return otherwise;
  if (otherwise !== undefined) return skip(`inconclusive: ${what}: ${otherwise.premise}`, 'inconclusive');
  return { verdict: 'fail', failures: [failure(what, res, path === undefined ? {} : { path })] };
}

/** Where a violation is: a missing field's own place, not its parent's (ajv's `required` names the parent). */
function violatedAt(v: Violation): string {
  return v.keyword === 'required' && typeof v.params.missingProperty === 'string' ? `${v.path}/${v.params.missingProperty}` : v.path;
}

/** Whether two JSON pointers lie on one path: one is the other, or holds it. */
function onPath(a: string, b: string): boolean {
  const within = (outer: string, inner: string) => inner === outer || inner.startsWith(`${outer}/`);
  return within(a, b) || within(b, a);
}

/**
 * What the schema holding of an answer that lacks what a check needs means, when the description
 * does not require it at must: a premise that failed, not a defect (`shapeHandOff`).
 */
export interface Premise {
  premise: string;
}

/**
 * An answer that is not a success where the check needed one: its status is the schema check's
 * finding on that answer (it expects a success), so it is handed there.
 */
export function statusHandOff(object: ShapedObject, res: CheckResponse, what: string, expected = '200'): CheckOutcome {
  return handOff(schemaCheckOf(object), failure(what, res, statusDefect(res, expected)));
}

/** A premise that failed on another check's defect: the check that judges it, and the defect in words. */
export interface HandedPremise {
  owner: string;
  what: string;
}

/** The rule whose check judges that `tool_choice: "required"` brings a call (`.streamed` on a stream). */
export const REQUIRED_FORCES_CALL = 'rule.chat.tool-choice.required-forces-call';

/** The rule whose check judges that a `tool_choice` naming a function brings a call of it. */
export const NAMED_FORCES_FUNCTION = 'rule.chat.tool-choice.named-forces-function';

/** The check of the same rule on the same kind of answer: a streamed rule check's own owner is the rule's streamed check. */
export const ownerFor = (owner: string, streamed: boolean): string => (streamed && owner.startsWith('rule.') ? `${owner}.streamed` : owner);
