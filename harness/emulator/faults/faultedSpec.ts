import type { Rule, Spec, TypeExpr } from '#harness/spec/model.ts';
import type { FaultId } from './catalogue.ts';

/**
 * The contract as a faulty emulator reads it. A status fault does not add a special case to the
 * validation code: it hands validation a copy of the spec with exactly one bound or rule removed or
 * changed, so the emulator keeps every other rule exactly as before.
 */
export function faultedSpec(spec: Spec, faults: ReadonlySet<FaultId>): Spec {
  const edits: ((s: Spec) => void)[] = [];
  const dropRule = (id: string) => (s: Spec) => {
    s.rules = s.rules.filter((r) => r.id !== id);
  };
  if (faults.has('empty-messages-accepted')) {
    edits.push(dropRule('chat.messages.non-empty'), (s) => {
      delete chatField(s, 'messages').min_items;
    });
  }
  if (faults.has('bounds-not-enforced')) {
    edits.push((s) => {
      for (const f of Object.values(s.objects.chat_completion_request?.fields ?? {})) stripBounds(f);
    });
  }
  if (faults.has('max-tokens-not-capped')) edits.push((s) => void delete chatField(s, 'max_tokens').maximum);
  if (faults.has('top-logprobs-without-logprobs')) edits.push(dropRule('chat.top-logprobs.requires-logprobs'));
  if (faults.has('missing-field-422')) edits.push((s) => setStatus(rule(s, 'chat.required-field.missing'), 422));
  if (faults.has('fim-thinking-accepted')) edits.push(dropRule('fim.thinking'));
  if (faults.has('fim-json-mode-accepted')) edits.push(dropRule('fim.json-mode'));
  if (faults.has('prefix-without-flag-accepted')) edits.push(dropRule('prefix.without-prefix-flag'));
  if (faults.has('prefix-outside-beta')) edits.push(dropRule('prefix.requires-beta-base'));
  if (faults.has('fim-outside-beta')) edits.push(dropRule('fim.requires-beta-base'));
  if (faults.has('reasoner-accepts-reasoning-content')) edits.push(dropRule('legacy.reasoner.reasoning-content-in-messages'));
  if (faults.has('bounds-too-tight')) {
    edits.push((s) => {
      for (const f of Object.values(s.objects.chat_completion_request?.fields ?? {})) tighten(f);
      for (const m of Object.values(s.models)) if (typeof m.max_output_tokens === 'number') m.max_output_tokens -= 1;
    });
  }
  if (edits.length === 0) return spec;
  const copy = structuredClone(spec);
  for (const edit of edits) edit(copy);
  return copy;
}

function chatField(s: Spec, name: string): TypeExpr {
  const f = s.objects.chat_completion_request?.fields[name];
  if (!f) throw new Error(`faultedSpec: chat_completion_request has no field ${name}`);
  return f;
}

function rule(s: Spec, id: string): Rule {
  const r = s.rules.find((x) => x.id === id);
  if (!r) throw new Error(`faultedSpec: no rule ${id}`);
  return r;
}

function setStatus(r: Rule, status: number): void {
  r.expect = { status };
}

/** Bounds moved just inside: the values at the stated bounds become out of range. */
function tighten(f: TypeExpr): void {
  const step = f.type === 'integer' ? 1 : 0.1;
  if (typeof f.minimum === 'number') f.minimum += step;
  if (typeof f.maximum === 'number') f.maximum -= step;
  if (typeof f.max_items === 'number') f.max_items -= 1;
  if (f.enum && f.enum.length > 1 && f.type === 'string') f.enum = f.enum.slice(0, -1);
  for (const alt of f.one_of ?? []) tighten(alt);
}

function stripBounds(f: TypeExpr): void {
  delete f.minimum;
  delete f.maximum;
  delete f.max_items;
  for (const alt of f.one_of ?? []) stripBounds(alt);
}
