import type { Behaviour, Model, Spec } from '#harness/spec/model.ts';
import { cutOff, ROOM_TOKENS } from '../support/premises.ts';
import type { CheckContext, CheckOutcome, CheckResponse } from '../context.ts';
import { defaultModelOnly, defineCheck, gradeOf, type Check } from '../define.ts';
import { behaviourOf, modelsOf } from '../support/behaviour.ts';
import { get, isObject, readJson } from '../support/body.ts';
import { chat, SAMPLE_TOOLS } from '../support/requests.ts';
import { inconclusive, repeated } from '../support/cooperation.ts';
import { failure, notAnswered, outcomeOf, pass, shown } from '../support/outcome.ts';
import { sample } from '../support/samples.ts';
import { handOffOnModel, NAMED_FORCES_FUNCTION, shapeHandOff } from '../support/handoff.ts';

type Message = Record<string, unknown>;

/** What a tool returns in the round trip: a result the answer can be about. */
export const TOOL_RESULT = JSON.stringify({ city: 'Paris', temperature_c: 21, sky: 'clear' });
/** The question of a round trip, in either format: one the offered WEATHER tool answers. */
export const WEATHER_QUESTION = { role: 'user', content: 'What is the weather in Paris? Use the tool.' };
const WEATHER = SAMPLE_TOOLS[0]!.function.name;

/** The first request of a round trip: a call of WEATHER, forced by name (Rule 3), shared by the checks that need one. */
function forcedToolCall(ctx: CheckContext, extra: Record<string, unknown> = {}) {
  return sample(ctx, chat(ctx, {
    messages: [WEATHER_QUESTION],
    tools: SAMPLE_TOOLS,
    tool_choice: { type: 'function', function: { name: WEATHER } },
    max_tokens: ROOM_TOKENS,
    ...extra,
  }));
}

/** The tool call a forced request was answered with, or why there is none to send back. */
export async function toolCallOf(ctx: CheckContext, extra: Record<string, unknown> = {}, asked = `a request forcing ${WEATHER}`): Promise<{ message: Message; callId: string; res: CheckResponse } | { why: string } | { outcome: CheckOutcome }> {
  const { res, body, unreadable } = await forcedToolCall(ctx, extra);
  if (res.status !== 200 || body === undefined) return { why: `the forced tool call was answered HTTP ${res.status}${unreadable ? ` (${unreadable})` : ''}` };
  // A call cut off by max_tokens is half a call: sending it back would judge the cut, not the round trip.
  const cut = cutOff(body);
  if (cut !== undefined) return { why: `the forced tool call: ${cut}` };
  const message = get(body, 'choices', 0, 'message');
  const callId = get(message, 'tool_calls', 0, 'id');
  // No call where one was forced is the named tool_choice rule's defect; a call without an id, or no message, the schema's.
  if (!isObject(message) || typeof callId !== 'string') {
    const what = `the answer to ${asked} holds no tool call with an id (${shown(get(message, 'tool_calls'))}), so there is no call to send a result for`;
    return { outcome: shapeHandOff(ctx, 'chat_completion', res, body, what, '/choices/0/message/tool_calls', handOffOnModel(NAMED_FORCES_FUNCTION, failure(what, res))) };
  }
  return { message, callId, res };
}

/**
 * The assistant turn sent back as the description asks: `content` (a string, as the Message table
 * types it) and the calls, never `reasoning_content` ("must not be put into messages of later requests").
 */
function sentBack(message: Message, withReasoning = false): Message {
  return {
    role: 'assistant',
    content: typeof message.content === 'string' ? message.content : '',
    ...(message.tool_calls !== undefined ? { tool_calls: message.tool_calls } : {}),
    ...(withReasoning ? { reasoning_content: message.reasoning_content } : {}),
  };
}

/** The conversation of a round trip: the question, the call sent back, its result. */
export function roundTrip(message: Message, callId: string, withReasoning = false): Message[] {
  return [
    WEATHER_QUESTION,
    sentBack(message, withReasoning),
    { role: 'tool', tool_call_id: callId, content: TOOL_RESULT },
  ];
}

/** How the answer to a tool result breaks the rules: refused, another call under `none`, no text. */
async function judgeToolAnswer(res: CheckResponse, what: string): Promise<CheckOutcome> {
  const read = await readJson(res);
  if (res.status !== 200) return outcomeOf([notAnswered(what, res, read)]);
  if (!read.ok) return outcomeOf([failure(`${what} was answered 200 with a body that is not JSON: ${read.why}`, res)]);
  const finish = get(read.body, 'choices', 0, 'finish_reason');
  const content = get(read.body, 'choices', 0, 'message', 'content');
  // Another call under `none` breaks Rule 3, which rule.chat.tool-choice.none-forbids-tools reports: one finding per cause.
  if (finish === 'tool_calls' || get(read.body, 'choices', 0, 'message', 'tool_calls') !== undefined) {
    return handOffOnModel('rule.chat.tool-choice.none-forbids-tools', failure(`${what}, sent with \`tool_choice\` "none", was answered with another tool call (finish_reason ${shown(finish)}), so whether the result is answered with text cannot be seen`, res));
  }
  const failures = [];
  const empty = typeof content !== 'string' || content.trim() === '';
  // Cut off before any text: whether the result would be answered with text cannot be seen.
  if (finish === 'length' && empty) return inconclusive(`${what} was cut off at max_tokens before any text (content ${shown(content)}), so whether the result is answered with text cannot be seen`);
  if (finish === 'stop' && empty) {
    failures.push(failure(`${what} ended with finish_reason "stop" but no answer text (content ${shown(content)})`, res));
  } else if (finish !== 'stop' && finish !== 'length') {
    failures.push(failure(`${what} ended with finish_reason ${shown(finish)}, where a text answer ends with "stop" or "length"`, res));
  }
  return outcomeOf(failures);
}

/**
 * The tool round trip, both requests carrying `mode` (nothing: the server's default thinking mode).
 * Its checks run at once, so each mode adds no round trip to the run.
 */
function roundTripCheckOf(roundTripEntry: Behaviour) {
  return (id: string, title: string, appliesTo: (m: Model, id: string) => boolean, mode: Record<string, unknown> = {}): Check =>
    defineCheck({
      id,
      title,
      ...gradeOf(roundTripEntry),
      specRefs: ['conversation.tool-round-trip'],
      appliesTo,
      chain: 2,
      async run(ctx) {
        const call = await toolCallOf(ctx, mode);
        if ('outcome' in call) return call.outcome;
        if ('why' in call) return inconclusive(`${call.why}, so there is no call to send a result for`);
        const res = await ctx.send(chat(ctx, { messages: roundTrip(call.message, call.callId), tools: SAMPLE_TOOLS, tool_choice: 'none', max_tokens: 64, ...mode }));
        return judgeToolAnswer(res, 'the tool result (the assistant turn with its `tool_calls`, then a `tool` message naming the call)');
      },
    });
}

/** A code word per run, from its seed: a recording replays the same requests. */
const codeWord = (ctx: CheckContext, kind: string) => `${kind}-${(ctx.options.seed >>> 0).toString(36)}`;
const QUESTION = 'What is the code word? Answer with the code word only.';
const told = (word: string): Message[] => [
  { role: 'user', content: `Remember this: the code word is ${word}.` },
  { role: 'assistant', content: 'I will remember it.' },
  { role: 'user', content: QUESTION },
];

/** Several turns in one request: a tool round trip, earlier assistant turns, an answer that uses the history sent. */
export function conversationChecks(spec: Spec): Check[] {
  const roundTripEntry = behaviourOf(spec.conversation, 'tool-round-trip', 'conversation');
  const turnsEntry = behaviourOf(spec.conversation, 'assistant-turns', 'conversation');
  const historyEntry = behaviourOf(spec.conversation, 'history-used', 'conversation');
  const roundTripCheck = roundTripCheckOf(roundTripEntry);
  return [
    roundTripCheck('conversation.tool-round-trip.answers-tool-result', 'a tool call sent back with its result (role tool, tool_call_id) is answered with text', modelsOf(roundTripEntry)),
    // With thinking enabled, the round trip is conversation.thinking-tool-turns' (production refuses it: advisory).
    roundTripCheck('conversation.tool-round-trip.answers-tool-result.thinking-disabled', 'with thinking disabled, a tool call sent back with its result is answered with text', (m, id) => modelsOf(roundTripEntry)(m, id) && Array.isArray(m.thinking_modes) && m.thinking_modes.length > 1, { thinking: { type: 'disabled' } }),
    defineCheck({
      id: 'conversation.assistant-turns.answered',
      title: 'a request whose history holds an earlier assistant turn is answered',
      ...gradeOf(turnsEntry),
      specRefs: ['conversation.assistant-turns'],
      appliesTo: modelsOf(turnsEntry),
      // "Is answered": the status says it (a request with earlier assistant turns is not refused).
      judges: 'status',
      async run(ctx) {
        const res = await ctx.send(chat(ctx, { messages: [
          { role: 'user', content: 'Say hello.' },
          { role: 'assistant', content: 'Hello there!' },
          { role: 'user', content: 'Repeat: second turn' },
        ] }));
        if (res.status === 200) return pass();
        const read = await readJson(res);
        return outcomeOf([notAnswered('a conversation with an earlier assistant turn (user, assistant, user)', res, read)]);
      },
    }),
    defineCheck({
      id: 'conversation.history.answer-uses-history-sent',
      title: 'what an earlier turn of the history sent says reaches the answer',
      ...gradeOf(historyEntry),
      specRefs: ['conversation.history-used', 'statelessness'],
      // Statelessness is the service's, as stateless.history.not-kept judges it: once, on the default model.
      appliesTo: defaultModelOnly,
      chain: 2,
      async run(ctx) {
        const word = codeWord(ctx, 'kiwi');
        // The premise: asked in one message, the endpoint answers with the code word.
        const single = await ctx.send(chat(ctx, { messages: [{ role: 'user', content: `The code word is ${word}. ${QUESTION}` }] }));
        const control = get((await readJson(single)).body, 'choices', 0, 'message', 'content');
        if (single.status !== 200 || !repeated(control, word)) return inconclusive(`asked in one message, the endpoint does not answer with the code word ${word} (HTTP ${single.status}, ${shown(control)}), so whether it reads it from an earlier turn cannot be seen`);
        const res = await ctx.send(chat(ctx, { messages: told(word) }));
        const read = await readJson(res);
        const said = get(read.body, 'choices', 0, 'message', 'content');
        if (res.status !== 200) return outcomeOf([notAnswered(`the conversation telling the code word ${word} in an earlier turn`, res, read)]);
        if (repeated(said, word)) return pass();
        const cut = cutOff(read.body);
        if (cut) return inconclusive(`${cut}: the answer without the code word may have been cut before it`);
        return outcomeOf([failure(`the code word ${word} was told in an earlier turn of the history sent, and the answer does not have it (${shown(said)}), though the endpoint answers with it when it is in the same message`, res)]);
      },
    }),
  ];
}
