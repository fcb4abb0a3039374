import type { Spec } from '#harness/spec/model.ts';
import type { Check } from '../define.ts';
import { invalidRequestsCheck } from './invalidRequests.ts';
import { validRequestsCheck } from './validRequests.ts';

/** The property checks: requests drawn from the spec, valid and broken, with shrinking. */
export function propertyChecks(spec: Spec): Check[] {
  return [validRequestsCheck(), invalidRequestsCheck(spec)];
}
