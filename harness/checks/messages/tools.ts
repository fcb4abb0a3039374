import type { Spec } from '#harness/spec/model.ts';
import type { CheckContext } from '../context.ts';
import { defineCheck, gradeOf, messagesModels, type Check } from '../define.ts';
import { behaviourOf } from '../support/behaviour.ts';
import { get, isObject, readJson } from '../support/body.ts';
import { messagesRequest, SAMPLE_TOOLS } from '../support/requests.ts';
import { inconclusive } from '../support/cooperation.ts';
import { failure, notAnswered, outcomeOf, shown, statusDefect } from '../support/outcome.ts';
import { sample } from '../support/samples.ts';
import { ROOM_TOKENS } from '../support/premises.ts';
import { TOOL_RESULT, WEATHER_QUESTION } from '../conversation/turns.ts';
import { handOff } from '../support/handoff.ts';

/** The chat format's sample tools in the messages format's shape (`input_schema`). */
const TOOLS = SAMPLE_TOOLS.map((t) => ({ name: t.function.name, description: t.function.description, input_schema: t.function.parameters }));
const WEATHER = TOOLS[0]!.name;

/** A request forcing WEATHER by name, shared by both tool checks. */
const forcedToolUse = (ctx: CheckContext) => sample(ctx, messagesRequest(ctx, { messages: [WEATHER_QUESTION], tools: TOOLS, tool_choice: { type: 'tool', name: WEATHER }, max_tokens: ROOM_TOKENS }));

const toolUseBlock = (body: unknown) => (Array.isArray(get(body, 'content')) ? (get(body, 'content') as unknown[]).find((b) => isObject(b) && b.type === 'tool_use') : undefined);

/** Tool use in the messages format, after that format's convention (the description shows none). */
export function messagesToolChecks(spec: Spec): Check[] {
  const use = behaviourOf(spec.messages_format, 'tool-use', 'messages_format');
  const result = behaviourOf(spec.messages_format, 'tool-result', 'messages_format');
  return [
    defineCheck({
      id: 'messages.tools.named-tool-used',
      title: 'a messages-format request naming a tool in tool_choice is answered with a tool_use block and stop_reason tool_use',
      ...gradeOf(use),
      specRefs: ['messages_format.tool-use'],
      appliesTo: messagesModels,
      async run(ctx) {
        const { res, body, unreadable } = await forcedToolUse(ctx);
        if (res.status !== 200 || body === undefined) return outcomeOf([failure(`a messages-format request offering tools was answered HTTP ${res.status}${unreadable ? ` (${unreadable})` : ''}`, res, statusDefect(res))]);
        // Cut off by max_tokens (the format's stop_reason for it): half a tool use says nothing of its form.
        if (get(body, 'stop_reason') === 'max_tokens') return inconclusive(`the reply was cut off by max_tokens (stop_reason "max_tokens") after ${shown(get(body, 'usage', 'output_tokens'))} tokens: what it says is incomplete, so it cannot be judged`);
        const block = toolUseBlock(body);
        const failures = [];
        if (!isObject(block)) failures.push(failure(`\`tool_choice\` names ${WEATHER}, and the reply holds no tool_use block (content ${shown(get(body, 'content'))}): the tools were ignored`, res));
        else {
          if (block.name !== WEATHER) failures.push(failure(`the tool_use block names ${shown(block.name)}, not ${WEATHER}, which \`tool_choice\` names`, res));
          if (typeof block.id !== 'string') failures.push(failure(`the tool_use block has no string \`id\` (${shown(block.id)}) for its result to name`, res));
          if (!isObject(block.input)) failures.push(failure(`the tool_use block's \`input\` is ${shown(block.input)}, not an object`, res));
          if (get(body, 'stop_reason') !== 'tool_use') failures.push(failure(`a reply with a tool_use block says \`stop_reason\` ${shown(get(body, 'stop_reason'))}, not "tool_use"`, res));
        }
        return outcomeOf(failures);
      },
    }),
    defineCheck({
      id: 'messages.tools.tool-result-answered',
      title: 'a tool_use turn sent back with a tool_result block is answered with text',
      ...gradeOf(result),
      specRefs: ['messages_format.tool-result'],
      appliesTo: messagesModels,
      async run(ctx) {
        const first = await forcedToolUse(ctx);
        const block = toolUseBlock(first.body);
        // Cut off before a tool_use block came: the forced call cannot be judged, by its owner or here (found on llama-server).
        if (first.res.status === 200 && block === undefined && get(first.body, 'stop_reason') === 'max_tokens') return inconclusive('the forced tool use was cut off by max_tokens before a tool_use block came, so there is no tool_use to answer with a tool_result');
        if (first.res.status !== 200 || !isObject(block) || typeof block.id !== 'string') return handOff('messages.tools.named-tool-used', failure(`the forced tool use (HTTP ${first.res.status}) gave no tool_use block with an id to answer`, first.res));
        const res = await ctx.send(messagesRequest(ctx, {
          messages: [WEATHER_QUESTION, { role: 'assistant', content: get(first.body, 'content') }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: block.id, content: TOOL_RESULT }] }],
          tools: TOOLS,
          max_tokens: 64,
        }));
        const read = await readJson(res);
        if (res.status !== 200) return outcomeOf([notAnswered('the tool_result turn', res, read)]);
        const content = get(read.body, 'content');
        // Another call is the model's choice (no tool_choice forbids it here): the answer to the result is then not seen.
        if (toolUseBlock(read.body) !== undefined) return inconclusive(`the tool_result turn was answered with another tool_use (stop_reason ${shown(get(read.body, 'stop_reason'))}), so whether a result is answered with text cannot be seen`);
        const text = Array.isArray(content) ? content.filter((b) => isObject(b) && b.type === 'text' && typeof b.text === 'string' && b.text !== '') : [];
        if (text.length > 0) return outcomeOf([]);
        // Cut off before any text (the format's stop_reason for it): whether the result would be answered with text cannot be seen.
        if (get(read.body, 'stop_reason') === 'max_tokens') return inconclusive(`the tool_result turn was cut off by max_tokens before any text (content ${shown(content)}), so whether a result is answered with text cannot be seen`);
        return outcomeOf([failure(`the tool_result turn was answered with no text (content ${shown(content)}, stop_reason ${shown(get(read.body, 'stop_reason'))})`, res)]);
      },
    }),
  ];
}
