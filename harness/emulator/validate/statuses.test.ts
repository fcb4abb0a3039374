import { describe, expect, it } from 'vitest';
import type { Spec } from '#harness/spec/model.ts';
import { validateRequest } from './request.ts';
import { ruleStatus, unspecifiedStatus, RULE_FOR_PROBLEM, requestErrorType } from './statuses.ts';
import { badRequestRow, chat, chatSite, spec, specStatus } from '#harness/testing/validateTestkit.ts';

describe('ruleStatus', () => {
  it.each(Object.values(RULE_FOR_PROBLEM))('reads the status of %s from the spec', (id) => {
    expect(ruleStatus(spec, id)).toBe(specStatus(id));
  });

  it('takes the first of status_any_of', () => {
    const rule = spec.rules.find((r) => r.id === 'bound.out-of-range')!;
    expect(rule.expect.status_any_of?.length).toBeGreaterThan(1);
    expect(ruleStatus(spec, 'bound.out-of-range')).toBe(rule.expect.status_any_of![0]);
    const reordered: Spec = structuredClone(spec);
    reordered.rules.find((r) => r.id === 'bound.out-of-range')!.expect.status_any_of = [422, 400];
    expect(ruleStatus(reordered, 'bound.out-of-range')).toBe(422);
    expect(validateRequest(reordered, chat({ temperature: 3 }), chatSite())?.status).toBe(422);
  });

  it('answers status_unspecified with the 400 row of the error table', () => {
    expect(unspecifiedStatus(spec)).toBe(badRequestRow());
    expect(ruleStatus(spec, 'prefix.requires-beta-base')).toBe(badRequestRow());
  });

  it('throws naming a rule the spec no longer has', () => {
    const without: Spec = { ...spec, rules: spec.rules.filter((r) => r.id !== 'bound.out-of-range') };
    expect(() => ruleStatus(without, 'bound.out-of-range')).toThrow(/bound\.out-of-range/);
    expect(() => validateRequest(without, chat({ temperature: 3 }), chatSite())).toThrow(/bound\.out-of-range/);
  });

  it('throws for a rule that expects no refusal', () => {
    expect(() => ruleStatus(spec, 'chat.response-format.json-output')).toThrow(/expects no refusal/);
  });

  it('throws when the error table loses the row unspecified statuses use', () => {
    const statuses = Object.fromEntries(Object.entries(spec.errors.statuses).filter(([k]) => k !== '400'));
    const without: Spec = { ...spec, errors: { ...spec.errors, statuses } };
    expect(() => unspecifiedStatus(without)).toThrow(/400 row/);
  });
});

describe('the error type', () => {
  it('is the sample type of the spec envelope', () => {
    expect(requestErrorType(spec)).toBe('invalid_request_error');
    const changed: Spec = structuredClone(spec);
    changed.errors.envelope.sample = { type: 'bad_request' };
    expect(validateRequest(changed, chat({ temperature: 3 }), chatSite())).toMatchObject({ type: 'bad_request', code: 'bad_request' });
  });
});
