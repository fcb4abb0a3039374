import fc, { type Arbitrary } from 'fast-check';
import type { Spec } from '#harness/spec/model.ts';
import { fieldValues, toolsWithChoice } from './_internals/builders/fieldValues.ts';
import { resolveConstraints, type ChatRequestConstraints } from './_internals/helpers/constraints.ts';
import { refusingRules } from './_internals/helpers/refusingRules.ts';
import { BASE, fieldLinks, requestFields, type JsonObject } from './_internals/helpers/specReading.ts';
import { completeRequest } from './_internals/mappers/completeRequest.ts';

export type { ChatRequestConstraints } from './_internals/helpers/constraints.ts';

/** A chat completion request body. */
export type ChatRequestBody = JsonObject;

/**
 * Valid chat completion requests for one model, read from spec/objects.yaml and spec/rules.yaml:
 *
 * - the required fields always, the optional ones sometimes;
 * - every bounded number anywhere inside its bounds, and half the time exactly on one of them;
 * - allowed values from the spec's lists; `stop` as a string or an array of up to its item limit
 *   (often exactly at it);
 * - a short conversation of system and user turns ending with a user turn;
 * - `max_tokens` small (constraints.maxTokens, default 1..64) so a live run stays cheap;
 * - fields a rule ties to another come with it: top_logprobs with logprobs = true, tool_choice
 *   with tools (thinking together with tools is allowed and produced);
 * - nothing a must-level rule of the chat endpoint refuses for this model on {base_url}
 *   (the fill-in-the-middle and beta-base rules do not apply); streaming is never selected.
 *
 * Fields the spec leaves unspecified (thinking.budget) and numbers without stated bounds beyond
 * their default (top_p) are not varied. Shrinks towards fewer optional fields and lower bounds.
 * Throws up front for a model the spec lacks or a bad `maxTokens`.
 */
export function chatRequest(spec: Spec, constraints: ChatRequestConstraints): Arbitrary<ChatRequestBody> {
  const opts = resolveConstraints(spec, constraints, 'chatRequest');
  const values = fieldValues(spec, opts);
  const order = Object.keys(requestFields(spec));
  const links = fieldLinks(spec);
  const site = { model: opts.model, base: BASE };

  const parts: Record<string, Arbitrary<unknown>> = {};
  const required: string[] = [];
  for (const [name, { arb, required: req }] of values) {
    if (name === 'tools') continue;
    parts[name] = arb;
    if (req) required.push(name);
  }
  const tools = values.get('tools');
  const toolPart = tools ? fc.option(toolsWithChoice(spec, tools.arb), { nil: undefined }) : fc.constant(undefined);

  return fc
    .record({ fields: fc.record(parts, { requiredKeys: required }), tools: toolPart })
    .map(({ fields, tools: t }) => completeRequest(spec, { ...fields, ...(t ?? {}) }, order, links))
    .filter((body) => refusingRules(spec, body, site).length === 0);
}
