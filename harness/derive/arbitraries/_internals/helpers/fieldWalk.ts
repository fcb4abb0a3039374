import type { Spec, TypeExpr } from '#harness/spec/model.ts';
import { objectFields, REQUEST_OBJECT, requestFields, strengthOf } from './specReading.ts';

/** One field of a request object (the chat request unless said) at any depth; `*` stands for any index of an array. */
export interface FieldNode {
  /** Dotted path template: `temperature`, `response_format.type`, `messages.*.content`. */
  path: string;
  expr: TypeExpr;
  /** The spec entry, for messages: `objects.chat_completion_request.fields.temperature`. */
  specRef: string;
}

/**
 * Every must-level field of the chat request, depth first: top-level fields, fields of inline and
 * referenced objects, fields of array items. The object forms inside `one_of` alternatives are not
 * entered (which alternative applies depends on the value). Fields whose strength is below must
 * are left out with everything under them: the description does not require a refusal there.
 */
export function fieldNodes(spec: Spec, object = REQUEST_OBJECT): FieldNode[] {
  const out: FieldNode[] = [];
  const visit = (fields: Record<string, TypeExpr>, prefix: string, specPrefix: string, inherited: 'must' | 'should' | 'unspecified', seen: readonly string[]) => {
    for (const [name, expr] of Object.entries(fields)) {
      const strength = strengthOf(expr, inherited);
      if (strength !== 'must') continue;
      const path = prefix === '' ? name : `${prefix}.${name}`;
      const specRef = `${specPrefix}.fields.${name}`;
      out.push({ path, expr, specRef });
      // A ref already on the way down would loop (no such object today); stop there.
      if (expr.ref !== undefined && seen.includes(expr.ref)) continue;
      const own = objectFields(spec, expr);
      if (own) visit(own, path, expr.ref ? `objects.${expr.ref}` : specRef, strength, expr.ref ? [...seen, expr.ref] : seen);
      const items = expr.items;
      if (items && !(items.ref !== undefined && seen.includes(items.ref))) {
        const itemFields = objectFields(spec, items);
        if (itemFields) visit(itemFields, `${path}.*`, items.ref ? `objects.${items.ref}` : `${specRef}.items`, strength, items.ref ? [...seen, items.ref] : seen);
      }
    }
  };
  visit(requestFields(spec, object), '', `objects.${object}`, 'must', [object]);
  return out;
}
