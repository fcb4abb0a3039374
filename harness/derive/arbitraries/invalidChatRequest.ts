import fc, { type Arbitrary } from 'fast-check';
import type { Spec } from '#harness/spec/model.ts';
import type { BreakDef, BrokenKind } from './_internals/builders/breaks.ts';
import { applyBreak, breakDefs, topOf } from './_internals/builders/applyBreak.ts';
import { canDraw } from './_internals/helpers/canDraw.ts';
import { fieldValues, optionsKey } from './_internals/builders/fieldValues.ts';
import { resolveConstraints, type ChatRequestConstraints } from './_internals/helpers/constraints.ts';
import { refusingRules } from './_internals/helpers/refusingRules.ts';
import { BASE, fieldLinks, requestFields, type Operation } from './_internals/helpers/specReading.ts';
import { chatRequest, type ChatRequestBody } from './chatRequest.ts';
import { cachedFeasibility } from './breakFeasibility.ts';

export type { BrokenKind } from './_internals/builders/breaks.ts';

/** Which single rule of the spec an invalid request breaks, and what the spec says follows. */
export interface Broken {
  kind: BrokenKind;
  /** The field broken, as a dotted path into the request (`temperature`, `messages.1.content`). */
  field: string;
  /** The rule of rules.yaml it falls under (`bound.out-of-range`, `chat.wrong-type`...). */
  ruleId: string;
  /** The statuses that rule names (`status` or `status_any_of`); undefined: any error (4xx). */
  statuses: number[] | undefined;
  /** The break in words: "`temperature` = 2.01 (maximum 2)". */
  what: string;
}

export interface InvalidChatRequest {
  request: ChatRequestBody;
  broken: Broken;
}

const KINDS: readonly BrokenKind[] = ['bound', 'enum', 'required', 'type', 'rule'];
/** Samples drawn once per break to see that it can be made alone for the model. */
const FEASIBILITY_SAMPLES = 10;

/**
 * A valid chat request (chatRequest) with exactly one rule of the spec broken, tagged with which:
 *
 * - `bound`: a number just beyond a bound (2.01 for a maximum of 2) or far beyond it, an array over
 *   its item limit; max_tokens beyond the model's maximum under every reading of its quantity;
 * - `enum`: a string off the list of allowed values (case, a suffix, a stranger);
 * - `required`: a required field left out, at any depth (`messages.0.content`);
 * - `type`: a value of none of the field's types (a fraction for an integer, text for a number);
 * - `rule`: a cross-field rule of rules.yaml a body can break (top_logprobs without logprobs = true,
 *   empty messages).
 *
 * Each kind is drawn equally often, then each break of that kind. Fields tied to the broken one by
 * a rule are dropped (top_logprobs when logprobs is broken) or supplied (logprobs = true when
 * top_logprobs is), so the request breaks nothing else. Shrinks within its kind and break.
 */
export function invalidChatRequest(spec: Spec, constraints: ChatRequestConstraints): Arbitrary<InvalidChatRequest> {
  const opts = resolveConstraints(spec, constraints, 'invalidChatRequest');
  const breaks = breaksOf(spec, constraints, opts);
  const drawable = cachedFeasibility(spec, opts, breaks.length) ?? breaks.map((b) => b.drawable());
  const kinds = KINDS.map((k) => ({ kind: k, arbs: breaks.filter((b, i) => b.kind === k && drawable[i]).map((b) => b.arbitrary!) })).filter((x) => x.arbs.length > 0);
  if (kinds.length === 0) throw new Error('invalidChatRequest: the spec gives no way to break a chat request');
  // Bounds are the most numerous rules of the spec: drawn twice as often, so a default live run of
  // few samples still probes them.
  return fc.oneof(...kinds.map((x) => ({ arbitrary: fc.oneof(...x.arbs), weight: x.kind === 'bound' ? 2 : 1 })));
}

/**
 * Whether each break of the model's chat request (in the arbitrary's order) can be drawn alone:
 * what the build writes beside the bundle for the shipped spec (breakFeasibility.ts), and the test
 * holds to what invalidChatRequest computes.
 */
export function breakFeasibility(spec: Spec, constraints: ChatRequestConstraints): { key: string; drawable: boolean[] } {
  const opts = resolveConstraints(spec, constraints, 'breakFeasibility');
  return { key: optionsKey(opts), drawable: breaksOf(spec, constraints, opts).map((b) => b.drawable()) };
}

/** One break of the request: its requests breaking it alone (none when a value it needs cannot be made), and whether one can be drawn. */
interface Break {
  kind: BrokenKind;
  arbitrary: Arbitrary<InvalidChatRequest> | undefined;
  drawable(): boolean;
}

function breaksOf(spec: Spec, constraints: ChatRequestConstraints, opts: ReturnType<typeof resolveConstraints>): Break[] {
  const base = chatRequest(spec, constraints);
  const defs = breakDefs(spec, opts);
  const values = fieldValues(spec, opts);
  const links = fieldLinks(spec);
  const order = Object.keys(requestFields(spec));
  const site = { model: opts.model, base: BASE };

  const breakOf = (kind: BrokenKind, def: BreakDef): Break => {
    const none: Break = { kind, arbitrary: undefined, drawable: () => false };
    // Valid values the break may have to supply: parents of nested fields, fields a broken one needs.
    const written = new Set(def.templates.map(topOf));
    const parents = def.templates.filter((t) => t !== topOf(t)).map(topOf);
    const needed = links.pairedWith.filter((p) => written.has(p.field) && !written.has(p.needs)).map((p) => p.needs);
    const support: Record<string, Arbitrary<unknown>> = {};
    for (const t of new Set([...parents, ...needed])) {
      const v = values.get(t);
      if (!v) return none;
      support[t] = v.arb;
    }
    const candidates = fc
      .tuple(base, def.patches, fc.record(support), fc.nat())
      .map(([request, patches, supplied, pick]) => applyBreak(def, request, patches, supplied, pick, links, order));
    // Construction keeps every other rule; the guard keeps it so for rules construction does not
    // know of. A break the guard never lets through for this model (top_logprobs beyond its bound,
    // which needs logprobs = true, on a model that refuses logprobs) is left out, not retried forever.
    const alone = (x: InvalidChatRequest | undefined): x is InvalidChatRequest => {
      if (x === undefined) return false;
      const ids = refusingRules(spec, x.request, site).map((r) => r.id);
      return x.broken.kind === 'rule' ? ids.length === 1 && ids[0] === x.broken.ruleId : ids.every((id) => id === x.broken.ruleId);
    };
    return { kind, arbitrary: candidates.filter(alone), drawable: () => canDraw(candidates, alone, FEASIBILITY_SAMPLES) };
  };

  return KINDS.flatMap((kind) => defs[kind].map((def) => breakOf(kind, def)));
}

/**
 * Rule ids of rules.yaml the arbitrary (or, for another operation, its coverage classes) may break
 * for these constraints (a check's specRefs). A
 * break the model can never get alone is listed too; the arbitrary leaves it out.
 */
export function breakableRules(spec: Spec, constraints: ChatRequestConstraints, operation?: Operation): string[] {
  const defs = breakDefs(spec, resolveConstraints(spec, constraints, 'breakableRules'), operation);
  return [...new Set(KINDS.flatMap((k) => defs[k].map((d) => d.ruleId)))];
}
