import type { Spec } from '#harness/spec/model.ts';
import type { CheckContext, CheckOutcome, CheckRequest } from '../context.ts';
import { defineCheck, gradeOf, type Check } from '../define.ts';
import { behaviourOf, modelsOf } from '../support/behaviour.ts';
import { get, readJson } from '../support/body.ts';
import { chat, SAMPLE_TOOLS } from '../support/requests.ts';
import { inconclusive } from '../support/cooperation.ts';
import { notAnswered, outcomeOf, pass, shown } from '../support/outcome.ts';
import { judgeRefusal } from '../support/refusal.ts';
import { legacyRulesStand } from '../support/retirement.ts';
import { sample } from '../support/samples.ts';
import { roundTrip, toolCallOf } from './turns.ts';

/** Thinking needs room: a reasoning model's chain of thought comes before its answer or call. */
const THINKING_ROOM = 512;
const thinkingOn = { thinking: { type: 'enabled' } };
/** A conversation with an earlier plain assistant turn, sent back with `content` only (Message object > Rule). */
const PLAIN_TURNS = [
  { role: 'user', content: 'Say hello.' },
  { role: 'assistant', content: 'Hello there!' },
  { role: 'user', content: 'Repeat: second turn' },
];
/** Each mode the plain turns are sent in; `enabled` is the one a server demanding reasoning_content refuses. */
const THINKING_TYPES = ['enabled', 'disabled'] as const;
/** A model whose thinking is switched on and off by request (more than one thinking mode). */
const switchesThinking = (m: { kind?: string; thinking_modes?: unknown }) => m.kind === 'current' && Array.isArray(m.thinking_modes) && m.thinking_modes.length > 1;

/**
 * The plain turns in one thinking mode: a refusal counts only where the same mode answers a single
 * turn (asked only then), so a server refusing the mode itself is not said to refuse the history.
 */
function plainTurnsIn(ctx: CheckContext, type: (typeof THINKING_TYPES)[number]): Promise<CheckOutcome> {
  const mode = { thinking: { type }, max_tokens: THINKING_ROOM };
  return answeredAgainst(ctx, chat(ctx, { messages: PLAIN_TURNS, ...mode }), chat(ctx, { messages: [PLAIN_TURNS[2]!], ...mode }), {
    controlRefused: (control, status) => `with thinking ${type}, a single turn is refused too (HTTP ${control}; the conversation HTTP ${status}), so the refusal is not of the history`,
    refused: `with thinking ${type}, a conversation whose earlier plain assistant turn is sent back with \`content\` only, as the description's rule asks`,
    after: '; a single turn in the same mode is answered',
  });
}

/**
 * A request the description says is answered: a pass when it is. Refused, the control (the same ask
 * without what is judged) tells whose the refusal is: refused too, not of what is judged
 * (inconclusive); answered, a failure with the refusal's body.
 */
async function answeredAgainst(ctx: CheckContext, request: CheckRequest, control: CheckRequest, words: { controlRefused: (control: number, status: number) => string; refused: string; after: string }): Promise<CheckOutcome> {
  const res = await ctx.send(request);
  if (res.status === 200) return pass();
  const read = await readJson(res);
  const again = await ctx.send(control);
  if (again.status !== 200) return inconclusive(words.controlRefused(again.status, res.status));
  return outcomeOf([notAnswered(words.refused, res, read, words.after)]);
}
/** The reasoner's first turn, asked once and sent again with its answer. */
const FIRST = { role: 'user', content: 'Repeat: first turn' };

/**
 * `reasoning_content` across turns, both rules as what they are: the description's legacy rule for
 * svc-reasoner (a must until it retires) and what the production service does with V4 tool-call turns
 * in thinking mode (advisory: the description says the opposite, and names no consequence).
 */
export function reasoningTurnChecks(spec: Spec): Check[] {
  const legacy = behaviourOf(spec.conversation, 'reasoner-reasoning-content-refused', 'conversation');
  const v4 = behaviourOf(spec.conversation, 'v4-thinking-tool-turns', 'conversation');
  const plainTurns = behaviourOf(spec.conversation, 'thinking-plain-turns', 'conversation');
  const capture = v4.evidence?.[0];
  return [
    defineCheck({
      id: 'conversation.thinking-plain-turns.answered',
      title: 'a conversation with an earlier plain assistant turn, sent back with content only, is answered with thinking enabled and disabled',
      ...gradeOf(plainTurns),
      specRefs: ['conversation.thinking-plain-turns', 'conversation.assistant-turns'],
      appliesTo: (m, id) => modelsOf(plainTurns)(m, id) && switchesThinking(m),
      // "Is answered": the status says it, in each mode (both sent at once).
      judges: 'status',
      async run(ctx) {
        const outcomes = await Promise.all(THINKING_TYPES.map((type) => plainTurnsIn(ctx, type)));
        const failures = outcomes.flatMap((o) => (o.verdict === 'fail' ? o.failures : []));
        if (failures.length > 0) return outcomeOf(failures);
        return outcomes.find((o) => o.verdict !== 'pass') ?? pass();
      },
    }),
    defineCheck({
      id: 'conversation.reasoner-turns.reasoning-content-refused',
      title: 'svc-reasoner refuses its own reasoning_content sent back (400) and answers the turn sent with content only',
      ...gradeOf(legacy),
      specRefs: ['conversation.reasoner-reasoning-content-refused', 'rules.legacy.reasoner.reasoning-content-in-messages'],
      appliesTo: modelsOf(legacy),
      chain: 3,
      async run(ctx) {
        const standing = await legacyRulesStand(ctx);
        if (standing) return standing;
        const first = await sample(ctx, chat(ctx, { messages: [FIRST], max_tokens: THINKING_ROOM }));
        const message = get(first.body, 'choices', 0, 'message');
        const reasoning = get(message, 'reasoning_content');
        if (first.res.status !== 200 || typeof reasoning !== 'string' || reasoning === '') {
          return inconclusive(`the first turn (HTTP ${first.res.status}) carries no reasoning_content (${shown(reasoning)}) to send back, so its refusal cannot be shown`);
        }
        const next = { role: 'user', content: 'Repeat: second turn' };
        const turn = { role: 'assistant', content: get(message, 'content') ?? '' };
        const withIt = await ctx.send(chat(ctx, { messages: [FIRST, { ...turn, reasoning_content: reasoning }, next] }));
        const failures = await judgeRefusal(ctx, withIt, { status: 400 }, 'the assistant turn sent back with its reasoning_content');
        const without = await ctx.send(chat(ctx, { messages: [FIRST, turn, next] }));
        if (without.status !== 200) {
          const read = await readJson(without);
          failures.push(notAnswered('the assistant turn sent back with content only, as the description asks', without, read));
        }
        return outcomeOf(failures);
      },
    }),
    defineCheck({
      id: 'conversation.thinking-tool-turns.answered-without-reasoning-content',
      title: 'in thinking mode, a tool-call turn sent back without reasoning_content (as the description asks) is answered',
      ...gradeOf(v4),
      specRefs: ['conversation.v4-thinking-tool-turns', 'rules.chat.thinking.with-tools'],
      appliesTo: modelsOf(v4),
      chain: 3,
      async run(ctx) {
        const call = await toolCallOf(ctx, { ...thinkingOn, max_tokens: THINKING_ROOM }, 'a thinking-mode request forcing get_weather');
        if ('outcome' in call) return call.outcome;
        if ('why' in call) return inconclusive(`in thinking mode, ${call.why}`);
        const reasoning = call.message.reasoning_content;
        if (typeof reasoning !== 'string' || reasoning === '') return inconclusive(`the thinking-mode tool call carries no reasoning_content (${shown(reasoning)}), so leaving it out of the turn sent back shows nothing`);
        const rest = { tools: SAMPLE_TOOLS, tool_choice: 'none', max_tokens: THINKING_ROOM, ...thinkingOn };
        // The control, what the production service wants instead: the same turn with its reasoning_content.
        return answeredAgainst(ctx, chat(ctx, { messages: roundTrip(call.message, call.callId), ...rest }), chat(ctx, { messages: roundTrip(call.message, call.callId, true), ...rest }), {
          controlRefused: (control, status) => `the tool-call turn is refused with its reasoning_content too (HTTP ${control}; without it HTTP ${status}), so the refusal is not of leaving reasoning_content out`,
          refused: 'the tool-call turn sent back with content and tool_calls only (no reasoning_content, as the description\'s rule asks)',
          after: `; sent back with its reasoning_content it is answered, as the production service requires (fixtures/real-world/${capture}). A client following the description cannot continue this conversation`,
        });
      },
    }),
  ];
}
