import type { Spec } from '#harness/spec/model.ts';
import type { Refusal } from '../http/refusal.ts';
import { isRecord } from './json.ts';
import { notAnObject, validateObject } from './object.ts';
import { checkRules } from './rules.ts';
import type { RequestSite } from './site.ts';

/**
 * A request body, in order: a body that is not a JSON object is refused (as a wrong type: the
 * body is JSON, of the wrong shape); then the fields of the endpoint's request object; then the
 * cross-field rules. Returns the first problem, or undefined.
 */
export function validateRequest(spec: Spec, body: unknown, site: RequestSite): Refusal | undefined {
  const endpoint = spec.endpoints[site.endpoint];
  if (!endpoint) throw new Error(`emulator validation: the spec has no endpoint \`${site.endpoint}\``);
  if (endpoint.request === null) throw new Error(`emulator validation: endpoint \`${site.endpoint}\` takes no request body`);
  if (!isRecord(body)) return notAnObject(spec, body);
  return validateObject(spec, endpoint.request, body, site) ?? checkRules(spec, body, site);
}
