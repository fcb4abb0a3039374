import { describe, expect, test } from 'vitest';
import { validatorFor } from '#harness/derive/validators/index.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { errorEnvelopeSaid, jsonOf } from './errorEnvelope.ts';

const { spec } = loadSpec();
const judge = (objectName: string, body: unknown) => validatorFor(spec, objectName, { profile: 'default' })(body);

describe('what a body says when it is the error envelope', () => {
  test('the envelope: its type, code and message in one line', () => {
    expect(errorEnvelopeSaid(judge, { error: { message: 'too many requests', type: 'rate_limit_error', code: 'rate_limit_exceeded', param: null } })).toBe('rate_limit_error rate_limit_exceeded: "too many requests"');
    expect(errorEnvelopeSaid(judge, jsonOf('{"error":{"message":"no","type":"invalid_request_error","param":null,"code":null}}'))).toBe('invalid_request_error: "no"');
  });

  test('anything else is not one: a completion, an object without `error`, no body, text that is not JSON', () => {
    expect(errorEnvelopeSaid(judge, { id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'svc-v4-flash', choices: [] })).toBeUndefined();
    expect(errorEnvelopeSaid(judge, { message: 'busy' })).toBeUndefined();
    expect(errorEnvelopeSaid(judge, undefined)).toBeUndefined();
    expect(jsonOf('data: {"error":1}\n\n')).toBeUndefined();
    expect(jsonOf('')).toBeUndefined();
  });
});
