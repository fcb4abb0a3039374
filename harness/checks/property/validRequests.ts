import { chatRequest, type ChatRequestBody } from '#harness/derive/arbitraries/index.ts';
import type { CheckContext } from '../context.ts';
import { currentModels, defineCheck, type Check } from '../define.ts';
import { readJson } from '../support/body.ts';
import { errorText, requestText } from './describe.ts';
import { runProperty, type Problem } from './runProperty.ts';
import { acceptanceOwner } from '../request/bounds.ts';
import { sample } from '../support/samples.ts';

/** Sends a valid request and judges the answer: 200, a JSON body with no must-level break of chat_completion. */
async function judgeAccepted(ctx: CheckContext, body: ChatRequestBody): Promise<Problem | undefined> {
  const res = await ctx.send({ base: 'base_url', method: 'POST', path: '/chat/completions', body });
  const read = await readJson(res);
  if (res.status !== 200) return { message: `a valid request was refused with HTTP ${res.status}${read.ok ? errorText(read.body) : ''}`, res, extra: { specRef: 'objects.chat_completion_request', defect: { kind: 'status', expected: '200', got: res.status } } };
  if (!read.ok) return { message: `a valid request was answered 200, but ${read.why}`, res, extra: { specRef: 'objects.chat_completion' } };
  const parsed = read.body;
  const broken = ctx.judge('chat_completion', parsed).filter((v) => v.level === 'must');
  if (broken.length === 0) return undefined;
  const first = broken[0]!;
  const listed = broken.slice(0, 3).map((v) => `${v.path || '/'} ${v.message}`).join('; ');
  return { message: `a valid request was answered 200, but the body is not a well-formed chat_completion: ${listed}${broken.length > 3 ? ` (and ${broken.length - 3} more)` : ''}`, res, extra: { path: first.path, specRef: first.specRef, defect: { kind: 'schema', path: first.path, keyword: first.keyword, what: first.message } } };
}

/**
 * Which check owns a valid request's refusal: the acceptance check of the one field (with bounds)
 * whose removal gets the request accepted, asked field by field. None when no such field does.
 */
async function ownerOfRefusal(ctx: CheckContext, body: ChatRequestBody, problem: Problem): Promise<string | undefined> {
  if (problem.res.status < 400 || problem.res.status >= 500) return undefined;
  for (const field of Object.keys(body)) {
    const owner = acceptanceOwner(ctx.spec, field);
    if (owner === undefined) continue;
    const { [field]: _dropped, ...without } = body as Record<string, unknown>;
    const { res } = await sample(ctx, { base: 'base_url', method: 'POST', path: '/chat/completions', body: without });
    if (res.status === 200) return owner;
  }
  return undefined;
}

/**
 * Valid chat requests drawn from the spec (every bound reachable, the bounds themselves often) are
 * answered 200 with a well-formed chat_completion. A failure shrinks to the smallest request that
 * still fails, which is sent once more before it is reported.
 */
export function validRequestsCheck(): Check {
  return defineCheck({
    id: 'property.valid-requests.accepted',
    title: 'valid chat requests drawn from the spec, bounds included, are answered 200 with a well-formed chat_completion',
    severity: 'must',
    basis: 'stated',
    specRefs: ['objects.chat_completion_request', 'objects.chat_completion'],
    appliesTo: currentModels,
    chain: 'runs',
    run(ctx) {
      const arbitrary = chatRequest(ctx.spec, { model: ctx.model, sentAs: ctx.targetModel });
      return runProperty(ctx, { arbitrary, judge: (body) => judgeAccepted(ctx, body), owner: (body, problem) => ownerOfRefusal(ctx, body, problem) }, requestText);
    },
  });
}
