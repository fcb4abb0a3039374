import type { Spec } from '#harness/spec/model.ts';
import type { Check } from '../define.ts';
import { invalidClassesChecks } from './invalidClasses.ts';
import { invalidRequestsCheck } from './invalidRequests.ts';
import { validRequestsCheck } from './validRequests.ts';

/** The property checks: requests drawn from the spec, valid and broken, with shrinking; before them, every class of broken request once (the coverage phase). */
export function propertyChecks(spec: Spec): Check[] {
  return [validRequestsCheck(), ...invalidClassesChecks(spec), invalidRequestsCheck(spec)];
}
