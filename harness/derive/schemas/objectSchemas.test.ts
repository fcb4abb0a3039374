import { describe, expect, test } from 'vitest';
import { loadSpec } from '#harness/spec/load.ts';
import { createAjv } from '#harness/derive/validators/createAjv.ts';
import { validatorFor } from '#harness/derive/validators/registry.ts';
import { deriveAllSchemas, deriveObjectSchema, SPEC_REF, STRENGTH } from './index.ts';

const { spec } = loadSpec();

describe('deriveObjectSchema', () => {
  test('derives a draft 2020-12 schema for every object, in both profiles, and each compiles', () => {
    for (const profile of ['default', 'strict'] as const) {
      const all = deriveAllSchemas(spec, { profile });
      expect(Object.keys(all).sort()).toEqual(Object.keys(spec.objects).sort());
      for (const schema of Object.values(all)) {
        expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
        expect(() => createAjv().compile(schema)).not.toThrow();
      }
    }
  });

  test('is deterministic: the same spec gives byte-identical schemas', () => {
    // A copy of the spec, so that the second is derived afresh, not the first one again.
    const a = JSON.stringify(deriveAllSchemas(spec, { profile: 'strict' }));
    const b = JSON.stringify(deriveAllSchemas(structuredClone(spec), { profile: 'strict' }));
    expect(a).toBe(b);
  });

  test('derives a schema once per spec, object and options, frozen: no caller changes what the next one gets', () => {
    const schema = deriveObjectSchema(spec, 'usage', { profile: 'default' });
    expect(deriveObjectSchema(spec, 'usage', { profile: 'default' })).toBe(schema);
    expect(deriveObjectSchema(spec, 'usage', { profile: 'strict' })).not.toBe(schema);
    expect(deriveObjectSchema(structuredClone(spec), 'usage', { profile: 'default' })).not.toBe(schema);
    expect(() => Object.assign(schema.properties as object, { extra: {} })).toThrow(TypeError);
    // The spec it was derived from is not frozen with it.
    expect(Object.isFrozen(spec.objects.usage)).toBe(false);
  });

  test('bundles the objects a schema refers to under $defs', () => {
    const schema = deriveObjectSchema(spec, 'chat_completion', { profile: 'default' });
    expect(Object.keys(schema.$defs as object).sort()).toEqual(['assistant_message', 'choice', 'tool_call', 'usage']);
  });

  test('every node carries the strength and the spec entry it comes from', () => {
    const schema = deriveObjectSchema(spec, 'chat_completion', { profile: 'default' });
    const props = schema.properties as Record<string, Record<string, unknown>>;
    expect(props.id![STRENGTH]).toBe('must');
    expect(props.id![SPEC_REF]).toBe('objects.chat_completion.fields.id');
    // The stated `chatcmpl-` shape is a should, so it sits in a layer of its own.
    expect(props.id!.allOf).toEqual([expect.objectContaining({ [STRENGTH]: 'should', pattern: expect.stringContaining('chatcmpl-') })]);
  });

  test('a non-empty bound with a basis of its own sits in a layer naming its entry', () => {
    const schema = deriveObjectSchema(spec, 'chat_completion', { profile: 'default' });
    const choices = (schema.properties as Record<string, Record<string, unknown>>).choices!;
    expect(choices.minItems).toBeUndefined();
    expect(choices.allOf).toEqual([expect.objectContaining({ minItems: 1, [STRENGTH]: 'must', [SPEC_REF]: 'objects.chat_completion.fields.choices.min_items' })]);
  });

  test("an object's implication is an if/then layer whose every node carries its strength and entry", () => {
    const choice = (deriveObjectSchema(spec, 'chat_completion', { profile: 'default' }).$defs as Record<string, Record<string, unknown>>).choice!;
    const layer = (choice.allOf as Record<string, unknown>[]).find((l) => 'if' in l)!;
    expect(layer.if).toEqual({ properties: { finish_reason: { const: 'tool_calls' } }, required: ['finish_reason'] });
    const notes = { [STRENGTH]: 'must', [SPEC_REF]: 'objects.choice.implies.0' };
    expect(layer.then).toEqual({ ...notes, required: ['message'], properties: { message: expect.objectContaining({ ...notes, required: ['tool_calls'], properties: { tool_calls: { ...notes, type: 'array', minItems: 1 } } }) } });
  });

  test('only the strict profile closes objects', () => {
    expect(deriveObjectSchema(spec, 'usage', { profile: 'default' }).additionalProperties).toBeUndefined();
    expect(deriveObjectSchema(spec, 'usage', { profile: 'strict' }).additionalProperties).toBe(false);
  });

  test('per-model bounds resolve only for a given model', () => {
    const open = deriveObjectSchema(spec, 'chat_completion_request', { profile: 'default' });
    const flash = deriveObjectSchema(spec, 'chat_completion_request', { profile: 'default', model: 'svc-v4-flash' });
    const maxTokens = (s: Record<string, unknown>) => (s.properties as Record<string, Record<string, unknown>>).max_tokens!;
    expect(maxTokens(open).maximum).toBeUndefined();
    expect(maxTokens(flash).maximum).toBe(spec.models['svc-v4-flash']!.max_output_tokens);
  });
});

describe('violation levels', () => {
  test('a null where null is not stated either way is advisory, not a failure', () => {
    const judge = validatorFor(spec, 'delta');
    const violations = judge({ content: null });
    expect(violations).toEqual([expect.objectContaining({ path: '/content', level: 'unspecified', specRef: 'objects.delta.fields.content.nullable' })]);
  });

  test('a field whose presence is unspecified is reported at that level when absent', () => {
    const judge = validatorFor(spec, 'error_envelope');
    expect(judge({ error: { message: 'm', type: 't' } })).toEqual([
      expect.objectContaining({ path: '/error', level: 'unspecified', message: 'missing required field `code`' }),
    ]);
  });

  test('a tool call whose arguments are not JSON is a should-level violation', () => {
    const judge = validatorFor(spec, 'tool_call');
    expect(judge({ function: { name: 'f', arguments: '{"a":1}' } })).toEqual([]);
    expect(judge({ function: { name: 'f', arguments: '{"a":' } })).toEqual([
      expect.objectContaining({ path: '/function/arguments', level: 'should', specRef: 'objects.tool_call.fields.function.fields.arguments.json_string' }),
    ]);
  });

  test('an unknown field is reported only in the strict profile, at its own path', () => {
    const body = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2, prompt_cache_hit_tokens: 0, prompt_cache_miss_tokens: 1, extra: 1 };
    expect(validatorFor(spec, 'usage')(body)).toEqual([]);
    expect(validatorFor(spec, 'usage', { profile: 'strict' })(body)).toEqual([
      expect.objectContaining({ path: '/extra', level: 'strict' }),
    ]);
  });
});
