import { isUnspecified, type Condition, type Rule, type Spec, type TypeExpr } from '#harness/spec/model.ts';
import { parseQuantity } from '#harness/spec/quantity.ts';
import type { CheckContext, CheckRequest } from '../context.ts';
import { isObject } from './body.ts';
import { chatBody, fimBody, SAMPLE_TOOLS } from './requests.ts';

/** A model id no service has: what an `unknown_model` condition sends. */
export const UNKNOWN_MODEL = 'svc-no-such-model';

/** Values a condition `{field, present: true}` sets, for fields whose value is not a scalar. */
const SAMPLE_VALUES: Record<string, unknown> = {
  tools: SAMPLE_TOOLS,
  tool_choice: 'auto',
  stop: ['STOP'],
  response_format: { type: 'json_object' },
  thinking: { type: 'enabled' },
  'tool_choice.function.name': 'get_time',
};

/** A valid value for a field, from its spec entry. */
export function sampleValue(expr: TypeExpr | undefined, path: string): unknown {
  if (path in SAMPLE_VALUES) return SAMPLE_VALUES[path];
  if (!expr) return 'x';
  if (expr.enum) return expr.enum[0];
  if (expr.const !== undefined) return expr.const;
  const type = Array.isArray(expr.type) ? expr.type[0] : expr.type;
  if (type === 'boolean') return true;
  if (type === 'integer' || type === 'number') return typeof expr.minimum === 'number' ? Math.max(expr.minimum, 1) : 1;
  if (type === 'string') return 'x';
  return undefined;
}

export function setPath(body: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let node = body;
  for (const p of parts.slice(0, -1)) {
    if (!isObject(node[p])) node[p] = p === 'function' ? {} : {};
    node = node[p] as Record<string, unknown>;
  }
  if (path === 'tool_choice.function.name') body.tool_choice = { type: 'function', function: { name: value } };
  else node[parts.at(-1)!] = value;
}

function deletePath(body: Record<string, unknown>, path: string): void {
  const parts = path.split('.');
  let node: unknown = body;
  for (const p of parts.slice(0, -1)) node = isObject(node) ? node[p] : undefined;
  if (isObject(node)) delete node[parts.at(-1)!];
}

export function fieldExpr(spec: Spec, object: string, path: string): TypeExpr | undefined {
  let fields = spec.objects[object]?.fields;
  let expr: TypeExpr | undefined;
  for (const p of path.split('.')) {
    expr = fields?.[p];
    fields = expr?.fields ?? (expr?.ref ? spec.objects[expr.ref]?.fields : undefined);
  }
  return expr;
}

/** A value of the wrong type for a field (a string where a number goes, a number elsewhere). */
export function wrongTypeValue(expr: TypeExpr | undefined): unknown {
  const type = Array.isArray(expr?.type) ? expr?.type[0] : expr?.type;
  return type === 'number' || type === 'integer' || type === 'boolean' ? 'not-a-number' : 12345;
}

export type Built = { request: CheckRequest } | { skip: string };

/**
 * A request that meets every condition of one `when` set of a rule, or why none can be built here.
 * Conditions on state the harness does not control (an empty account) cannot be met.
 */
export function buildForRule(ctx: CheckContext, rule: Rule, conditions: readonly Condition[]): Built {
  const { spec } = ctx;
  const endpoint = spec.endpoints[rule.endpoint];
  if (!endpoint) return { skip: `rule names endpoint ${rule.endpoint}, which the spec lacks` };
  const object = endpoint.request ?? '';
  const isFim = rule.endpoint === 'fim_completions';
  const body: Record<string, unknown> = isFim ? fimBody(ctx) : chatBody(ctx);
  let base = endpoint.bases.includes('base_url') ? 'base_url' : endpoint.bases[0]!;
  let rawBody: string | undefined;
  for (const c of conditions) {
    if (c.account && !ctx.options.hasEmptyBalanceKey) return { skip: 'needs a key whose balance cannot cover a request: name one with --empty-balance-key-env' };
    if (c.base) base = c.base;
    if (c.base_not) base = endpoint.bases.find((b) => b !== c.base_not) ?? (c.base_not === 'beta' ? 'base_url' : 'beta');
    if (c.body === 'invalid_json') rawBody = '{"model": "' + ctx.targetModel + '", "messages": [';
    if (c.last_message) {
      const msg: Record<string, unknown> = { role: c.last_message.role, content: 'Once upon a time' };
      if (c.last_message.prefix === true || c.last_message.prefix === false) msg.prefix = c.last_message.prefix;
      body.messages = [{ role: 'user', content: 'Write one sentence of a story.' }, msg];
    }
    if (c.any_message_has) {
      body.messages = [
        { role: 'user', content: 'Hello.' },
        { role: 'assistant', content: 'Hi there.', [c.any_message_has]: 'An earlier chain of thought.' },
        { role: 'user', content: 'Say hello in five words.' },
      ];
    }
    if (c.field === undefined) continue;
    if (c.unknown_model) body.model = UNKNOWN_MODEL;
    else if (c.wrong_type) setPath(body, c.field, wrongTypeValue(fieldExpr(spec, object, c.field)));
    else if (c.present === false) deletePath(body, c.field);
    else if ('equals' in c) setPath(body, c.field, structuredClone(c.equals));
    else if ('not_equals' in c) deletePath(body, c.field);
    else if (c.in) setPath(body, c.field, c.in[0]);
    else if (c.present === true && readPath(body, c.field) === undefined) setPath(body, c.field, sampleValue(fieldExpr(spec, object, c.field), c.field));
  }
  if (body.tool_choice !== undefined && body.tools === undefined) body.tools = SAMPLE_TOOLS;
  const path = isFim ? '/completions' : '/chat/completions';
  const auth = conditions.some((c) => c.account) ? { auth: 'empty-balance' as const } : {};
  return { request: { base, method: 'POST', path, ...auth, ...(rawBody !== undefined ? { rawBody } : { body }) } };
}

export function readPath(body: unknown, path: string): unknown {
  let v = body;
  for (const p of path.split('.')) v = isObject(v) ? v[p] : undefined;
  return v;
}

/** The model's maximum under both readings of its quantity, or undefined when not stated. */
export function modelMax(spec: Spec, model: string): { accept: number; reject: number; asWritten: string } | undefined {
  const q = spec.models[model]?.max_output_tokens;
  if (q === undefined || isUnspecified(q)) return undefined;
  const r = parseQuantity(q);
  return r ? { accept: r.low, reject: r.high + 1, asWritten: r.asWritten } : undefined;
}
