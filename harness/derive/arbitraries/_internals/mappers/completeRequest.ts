import type { Spec } from '#harness/spec/model.ts';
import { getPath } from '../helpers/refusingRules.ts';
import { ENDPOINT, type FieldLinks, type JsonObject } from '../helpers/specReading.ts';

/**
 * The finishing touches rules.yaml asks of a request: a field tied to another comes with it (or not
 * at all), JSON mode gets the prompt its rule advises, and keys follow the spec's order. Mutates
 * and returns `body` with its keys reordered (a fresh top-level object).
 */
export function completeRequest(spec: Spec, body: JsonObject, order: readonly string[], links: FieldLinks): JsonObject {
  for (const { field, needs } of links.pairedWith) if (body[field] !== undefined && body[needs] === undefined) delete body[field];
  for (const { field, needs, value } of links.companions) if (body[field] !== undefined) body[needs] = structuredClone(value);
  adviseJson(spec, body);
  return ordered(body, order);
}

/** Keys in the spec's order, then any others; undefined values dropped. */
export function ordered(body: JsonObject, order: readonly string[]): JsonObject {
  const out: JsonObject = {};
  for (const k of order) if (body[k] !== undefined) out[k] = body[k];
  for (const k of Object.keys(body)) if (!(k in out) && body[k] !== undefined) out[k] = body[k];
  return out;
}

/**
 * chat.response-format.json-output advises that the prompt describe the expected structure; a real
 * service may refuse JSON mode without it, so the last turn asks for JSON when JSON mode is on.
 */
function adviseJson(spec: Spec, body: JsonObject): void {
  const rule = spec.rules.find((r) => r.endpoint === ENDPOINT && r.expect.effect === 'content_parses_as_json');
  const on = rule !== undefined && rule.when.every((c) => c.field !== undefined && 'equals' in c && getPath(body, c.field) === c.equals);
  const messages = body.messages;
  if (!on || !Array.isArray(messages) || messages.length === 0) return;
  const last: unknown = messages[messages.length - 1];
  if (typeof last !== 'object' || last === null) return;
  const content = (last as JsonObject).content;
  if (typeof content === 'string' && !/json/i.test(content)) {
    body.messages = [...messages.slice(0, -1), { ...(last as JsonObject), content: `${content}. Answer with a JSON object.` }];
  }
}
