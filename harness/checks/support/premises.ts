import type { CheckContext, CheckOutcome, CheckRequest, CheckResponse } from '../context.ts';
import { acceptanceOwner } from '../request/bounds.ts';
import { get, isObject } from './body.ts';
import { failure, shown, skip, statusDefect } from './outcome.ts';
import { ROOM_TOKENS } from './requests.ts';
import { sample } from './samples.ts';

export { ROOM_TOKENS };

/** The request with room for its answer: `max_tokens` raised to ROOM_TOKENS where it asks for less. */
export function withRoom(request: CheckRequest): CheckRequest {
  const body = request.body;
  if (!isObject(body) || (typeof body.max_tokens === 'number' && body.max_tokens >= ROOM_TOKENS)) return request;
  return { ...request, body: { ...body, max_tokens: ROOM_TOKENS } };
}

/**
 * Why an answer cannot be judged on what it says, or undefined when it can: one cut off by
 * `max_tokens` (`finish_reason: "length"`) holds a part of what the model meant (a tool call's
 * arguments half written, JSON unclosed), so a verdict on it would be a verdict on the cut.
 */
export function cutOff(body: unknown): string | undefined {
  return cutOffBy(get(body, 'choices', 0, 'finish_reason'), get(body, 'usage', 'completion_tokens'));
}

/** The same for a stream, by the finish reason its chunks ended with. */
export function cutOffBy(finishReason: unknown, completionTokens?: unknown): string | undefined {
  if (finishReason !== 'length') return undefined;
  const used = typeof completionTokens === 'number' ? ` after ${completionTokens} tokens` : '';
  return `the answer was cut off by max_tokens (finish_reason "length"${used}): what it says is incomplete, so it cannot be judged`;
}

/**
 * The one premise every check of a tool call rests on, read the same way by each (the rules, the
 * meaning checks, the streams, the round trips, the clients): the answer that should hold the call
 * was not cut off by `max_tokens`. A call cut off is half a call, and no call where one was due is no
 * defect of the check that forces it either: inconclusive, before anything is handed to that check.
 * Whether `length` itself is reported right is the max_tokens rule's finding.
 */
export function toolCallCut(finishReason: unknown, completionTokens?: unknown): CheckOutcome | undefined {
  const cut = cutOffBy(finishReason, completionTokens);
  return cut === undefined ? undefined : skip(`inconclusive: ${cut}`, 'inconclusive');
}

/**
 * Why a control meant to show reasoning shows none, or undefined when it reasons: "no reasoning"
 * is a finding only where the same request, with `setting` (thinking enabled, no tools), reasons.
 * `cannot`: what then cannot be told apart.
 */
export function reasoningPremise(control: unknown, setting: string, cannot: string): string | undefined {
  const r = get(control, 'choices', 0, 'message', 'reasoning_content');
  return typeof r === 'string' && r.length > 0 ? undefined : `${setting} the answer carries no reasoning either (reasoning_content ${shown(r)}): ${cannot}`;
}

/** What the thinking-disabled checks cannot tell apart without reasoning in their control. */
export const THINKING_IGNORED = 'thinking turned off cannot be told from thinking ignored';

/**
 * A request the check needs, refused (4xx): when the same request without `fields` is accepted, the
 * refusal is of that parameter, whose acceptance another check owns. The failure says so and names
 * that check (`ownedBy`): where it fails too, the runner makes this one inconclusive, one defect
 * being one failure (runner/owned.ts). Shown, not assumed: the control is sent, and the owner's
 * verdict is read. Otherwise (a parameter no other check owns, several owners, a control refused
 * too) undefined, and the refusal stands as the check's own finding.
 */
export async function refusedForParameters(ctx: CheckContext, request: CheckRequest, res: CheckResponse, fields: readonly string[]): Promise<CheckOutcome | undefined> {
  const owners = [...new Set(fields.map((f) => acceptanceOwner(ctx.spec, f)))];
  const [owner] = owners;
  // A parameter no other check owns is this check's to judge: its refusal stands.
  if (res.status < 400 || res.status >= 500 || owners.length !== 1 || owner === undefined || typeof request.body !== 'object' || request.body === null) return undefined;
  const without: Record<string, unknown> = { ...(request.body as Record<string, unknown>) };
  for (const f of fields) delete without[f];
  // Shared: where the check already asked the same request without them (its own control), no request more.
  const { res: control } = await sample(ctx, { ...request, body: without });
  if (control.status !== 200) return undefined;
  const named = fields.map((f) => `\`${f}\``).join(' and ');
  return { verdict: 'fail', failures: [failure(`the request was refused (HTTP ${res.status}) because of ${named}: the same request without it was accepted`, res, { ...statusDefect(res), ownedBy: owner })] };
}
