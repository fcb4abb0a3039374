/** Shared by the tests of this folder: the shipped spec, request sites, and bodies to start from. */
import { loadSpec } from '#harness/spec/load.ts';
import type { Spec } from '#harness/spec/model.ts';
import type { RequestSite } from '#harness/emulator/validate/site.ts';

export const spec: Spec = loadSpec().spec;

/**
 * A rule's status read straight from the spec, independently of statuses.ts: `status`, else the
 * first of `status_any_of`.
 */
export function specStatus(id: string, s: Spec = spec): number {
  const rule = s.rules.find((r) => r.id === id);
  const status = rule?.expect.status ?? rule?.expect.status_any_of?.[0];
  if (status === undefined) throw new Error(`test: rule ${id} has no stated status`);
  return status;
}

/** The spec's error-table row for "Bad request", which answers statuses the spec leaves open. */
export function badRequestRow(s: Spec = spec): number {
  const row = Object.entries(s.errors.statuses).find(([, r]) => r.meaning === 'Bad request');
  if (!row) throw new Error('test: no Bad request row');
  return Number(row[0]);
}

export type Body = Record<string, unknown>;

export function chatSite(modelId = 'svc-v4-flash', base = 'base_url'): RequestSite {
  return { base, endpoint: 'chat_completions', modelId };
}

export function fimSite(modelId = 'svc-v4-pro', base = 'beta'): RequestSite {
  return { base, endpoint: 'fim_completions', modelId };
}

export function messagesSite(modelId = 'svc-v4-flash'): RequestSite {
  return { base: 'messages_base_url', endpoint: 'messages', modelId };
}

/** A valid chat body for the model, with `extra` fields set (a field set to undefined is removed). */
export function chat(extra: Body = {}, model = 'svc-v4-flash'): Body {
  const body: Body = { model, messages: [{ role: 'user', content: 'Hello' }], ...extra };
  for (const [k, v] of Object.entries(body)) if (v === undefined) delete body[k];
  return body;
}

export const TOOL = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Weather of a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};

export function fim(extra: Body = {}): Body {
  return { model: 'svc-v4-pro', prompt: 'def add(a, b):\n', suffix: '\n    return c\n', ...extra };
}
