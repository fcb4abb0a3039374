import { ownValidator } from '#harness/derive/validators/registry.ts';
import type { Failure } from '#harness/core/outcome.ts';
import { REQUIRED_FORCES_CALL, type HandedPremise } from '../support/handoff.ts';
import type { CheckContext, CheckRequest, CheckResponse } from '../context.ts';
import { get, isObject, type Json } from '../support/body.ts';
import { SAMPLE_TOOLS } from '../support/requests.ts';
import { ignoresPrefix, PREFIX, prefixPremise, reachedStop, runsPastStop, STOP, stopPremise } from '../support/cooperation.ts';
import { failure, shown } from '../support/outcome.ts';
import { reasoningPremise, THINKING_IGNORED } from '../support/premises.ts';

/**
 * How to observe each `effect` a rule of rules.yaml names: how to shape the request so the effect
 * can show (`prepare`), and how to judge the answer (`judge`). An effect that needs the endpoint to
 * cooperate sends a `control` request first, and `premise` says why its answer cannot show the
 * effect (the verdict is then inconclusive, never a pass). An effect the harness cannot judge from
 * outside says so (`cannotJudge`), and the check passes on acceptance alone, saying what it could
 * not see.
 */
export interface Effect {
  prepare?(request: CheckRequest, ctx: CheckContext): void;
  control?(request: CheckRequest): CheckRequest;
  premise?(control: Json): string | undefined;
  /**
   * Why the answer itself cannot show the effect (no tool call to judge a tool call's form by): a
   * premise, or another rule's defect (no call where `tool_choice` is "required"), handed to its check.
   */
  needs?(body: Json): string | HandedPremise | undefined;
  /** Why an answer that breaks nothing still shows nothing (it never reached the stop text): asked of a pass only. */
  passNeeds?(body: Json, control?: Json): string | undefined;
  judge?(body: Json, res: CheckResponse, request: CheckRequest, ctx: CheckContext, control?: Json): Failure[];
  cannotJudge?: string;
  /** The control's premise is needed by a pass only: a failure (reasoning where thinking is off) shows without it. */
  passNeedsControl?: true;
  /** The effect is the cut itself (max_tokens): an answer cut off is what it judges, not a premise that failed. */
  judgesCut?: true;
  /**
   * A cut answer shows the effect all the same: that it did not reason (reasoning comes before the
   * text, so an answer cut anywhere has already reasoned or not).
   */
  shownWhenCut?: true;
}

/** No call where `tool_choice` is "required": that rule's defect, and nothing of a call to judge here. */
const NO_CALL: HandedPremise = { owner: REQUIRED_FORCES_CALL, what: 'the reply calls no tool although tool_choice is "required"' };

/** The max_tokens the truncation rule asks for: far below what the prompt asks the model to write. */
const CUT_AT = 5;

/** The same request with changes to its body, for a control exchange. */
const variant = (r: CheckRequest, change: (b: Json) => void): CheckRequest => {
  const b = structuredClone(body(r));
  change(b);
  return { ...r, body: b };
};

const message = (b: Json) => get(b, 'choices', 0, 'message');
const finish = (b: Json) => get(b, 'choices', 0, 'finish_reason');
const toolCalls = (b: Json): Json[] => {
  const calls = get(b, 'choices', 0, 'message', 'tool_calls');
  return Array.isArray(calls) ? calls.filter(isObject) : [];
};
const content = (b: Json) => get(b, 'choices', 0, 'message', 'content');
const body = (r: CheckRequest) => r.body as Json;
const say = (r: CheckRequest, text: string) => {
  body(r).messages = [{ role: 'user', content: text }];
};

export const EFFECTS: Record<string, Effect> = {
  content_parses_as_json: {
    prepare: (r) => say(r, 'Reply with a JSON object with one key "answer" holding a greeting.'),
    judge: (b, res) => {
      const c = content(b);
      if (typeof c !== 'string') return [failure('JSON mode: `content` is not a string', res)];
      try {
        JSON.parse(c);
        return [];
      } catch {
        return [failure(`JSON mode: content does not parse as JSON: ${c.slice(0, 120)}`, res)];
      }
    },
  },
  no_tool_calls: {
    prepare: (r) => say(r, 'What is the weather in Paris? You may use get_weather.'),
    // The same invitation under `auto` must call a tool, or "none" forbidding one shows nothing.
    control: (r) => variant(r, (b) => void (b.tool_choice = 'auto')),
    premise: (c) => (toolCalls(c).length > 0 ? undefined : 'with tool_choice "auto" the endpoint calls no tool for a prompt that invites one, so whether "none" forbids calls cannot be seen'),
    judge: (b, res) => (toolCalls(b).length > 0 ? [failure('tool_choice "none": the reply calls a tool', res)] : []),
  },
  tool_called: {
    prepare: (r) => say(r, 'What is the weather in Paris?'),
    judge: (b, res) => (toolCalls(b).length === 0 ? [failure('tool_choice "required": the reply calls no tool', res)] : []),
  },
  named_tool_called: {
    prepare: (r) => say(r, 'What is the weather in Paris?'),
    judge: (b, res, r) => {
      const want = get(body(r), 'tool_choice', 'function', 'name');
      const names = toolCalls(b).map((c) => get(c, 'function', 'name'));
      if (names.length === 0) return [failure(`tool_choice names ${String(want)}: the reply calls no tool`, res)];
      return names.filter((n) => n !== want).map((n) => failure(`tool_choice names ${String(want)}: the reply calls ${String(n)}`, res));
    },
  },
  finish_reason_tool_calls_iff_tool_calls: {
    prepare: (r) => {
      say(r, 'What is the weather in Paris? Use get_weather.');
      body(r).tool_choice = 'required';
    },
    needs: (b) => (toolCalls(b).length > 0 || finish(b) === 'tool_calls' ? undefined : NO_CALL),
    judge: (b, res) => {
      const called = toolCalls(b).length > 0;
      const f = finish(b);
      if (called && f !== 'tool_calls') return [failure(`the reply calls a tool but finish_reason is ${shown(f)}`, res)];
      if (!called && f === 'tool_calls') return [failure('finish_reason is "tool_calls" but the reply calls no tool', res)];
      return [];
    },
  },
  arguments_parse_and_match_parameters: {
    needs: (b) => (toolCalls(b).length > 0 ? undefined : NO_CALL),
    prepare: (r) => {
      say(r, 'What is the weather in Paris?');
      body(r).tool_choice = 'required';
    },
    judge: (b, res, r) => {
      const tools = (Array.isArray(body(r).tools) ? body(r).tools : SAMPLE_TOOLS) as Json[];
      const out: Failure[] = [];
      for (const call of toolCalls(b)) {
        const name = get(call, 'function', 'name');
        const args = get(call, 'function', 'arguments');
        const tool = tools.find((t) => get(t, 'function', 'name') === name);
        if (typeof args !== 'string') {
          out.push(failure(`tool call ${String(name)}: arguments are not a string`, res));
          continue;
        }
        let parsed: unknown;
        try {
          parsed = JSON.parse(args);
        } catch {
          out.push(failure(`tool call ${String(name)}: arguments do not parse as JSON: ${args.slice(0, 120)}`, res));
          continue;
        }
        const schema = get(tool, 'function', 'parameters');
        if (isObject(schema)) {
          const validate = ownValidator(schema);
          if (!validate(parsed)) out.push(failure(`tool call ${String(name)}: arguments do not match the tool's parameters: ${validate.errors?.map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ')}`, res));
        }
      }
      return out;
    },
  },
  reasoning_content_present: {
    judge: (b, res) => {
      const r = get(message(b), 'reasoning_content');
      return typeof r === 'string' && r.length > 0 ? [] : [failure(`thinking enabled: reasoning_content is ${shown(r)}`, res)];
    },
  },
  reasoning_content_null: {
    shownWhenCut: true,
    passNeedsControl: true,
    // "Off" shows only where "on" shows something: the same request with thinking enabled must reason.
    control: (r) => variant(r, (b) => {
      delete b.reasoning_effort;
      b.thinking = { type: 'enabled' };
    }),
    premise: (c) => reasoningPremise(c, 'with thinking enabled', THINKING_IGNORED),
    judge: (b, res) => {
      const r = get(message(b), 'reasoning_content');
      return r === null || r === undefined ? [] : [failure(`thinking off: reasoning_content is ${JSON.stringify(r).slice(0, 80)}`, res)];
    },
  },
  stop_sequence_ends_output: {
    prepare: (r) => {
      say(r, STOP.prompt);
      body(r).stop = [STOP.sequence];
    },
    control: (r) => variant(r, (b) => void delete b.stop),
    premise: (c) => stopPremise(content(c)),
    passNeeds: (b, control) => reachedStop(content(b), content(control ?? {})),
    judge: (b, res, _r, _ctx, control) => {
      const c = content(b);
      const out: Failure[] = [];
      const past = typeof c === 'string' ? runsPastStop(c, content(control ?? {}) as string) : undefined;
      if (past) out.push(failure(past, res));
      // Whether the stop text itself is left out is not stated: output.stop-sequence.left-out (advisory).
      if (finish(b) !== 'stop' && finish(b) !== 'length') out.push(failure(`finish_reason is ${shown(finish(b))}, expected "stop"`, res));
      return out;
    },
  },
  finish_reason_length_when_truncated: {
    judgesCut: true,
    prepare: (r) => {
      say(r, 'Write a long story about a fox, at least three hundred words.');
      body(r).max_tokens = CUT_AT;
    },
    // An answer that ended on its own below the cap was never cut: what a cut says cannot be seen.
    needs: (b) => {
      const used = get(b, 'usage', 'completion_tokens');
      return finish(b) === 'stop' && typeof used === 'number' && used < CUT_AT ? `the answer ended on its own after ${used} tokens, below max_tokens ${CUT_AT}: it was never cut, so how a cut is reported cannot be seen` : undefined;
    },
    judge: (b, res, r) => {
      const used = get(b, 'usage', 'completion_tokens');
      const max = body(r).max_tokens as number;
      const out: Failure[] = [];
      if (typeof used === 'number' && used > max) out.push(failure(`completion_tokens ${used} exceeds max_tokens ${max}`, res));
      if (finish(b) !== 'length') out.push(failure(`output cut at max_tokens ${max}: finish_reason is ${shown(finish(b))}, expected "length"`, res));
      return out;
    },
  },
  reply_continues_prefix: {
    prepare: (r) => {
      body(r).messages = [{ role: 'user', content: PREFIX.prompt }, { role: 'assistant', content: PREFIX.prefix, prefix: true }];
    },
    // The same conversation without the prefix turn, on the same base: does the endpoint repeat?
    control: (r) => variant(r, (b) => void (b.messages = [{ role: 'user', content: PREFIX.prompt }])),
    premise: (c) => prefixPremise(content(c)),
    passNeeds: (b) => (typeof content(b) === 'string' && (content(b) as string).trim() !== '' ? undefined : `the reply has no text (${shown(content(b))}), so whether it continues the prefix cannot be seen`),
    judge: (b, res) => {
      const why = ignoresPrefix(content(b));
      return why ? [failure(why, res)] : [];
    },
  },
  max_tokens_default_applied: { cannotJudge: 'the default applies inside the service; checked: accepted without max_tokens' },
  sampling_has_no_effect: { cannotJudge: 'a sampling field having no effect cannot be told from one answer; checked: accepted' },
  processed_as_svc_chat: {
    shownWhenCut: true,
    // "Handled as svc-chat" shows only where the alias reasons without tools: the same request without them must reason.
    passNeedsControl: true,
    control: (r) => variant(r, (b) => {
      delete b.tools;
      delete b.tool_choice;
    }),
    premise: (c) => reasoningPremise(c, 'without tools', 'handed to svc-chat cannot be told from never reasoning'),
    judge: (b, res) => {
      const r = get(message(b), 'reasoning_content');
      return r === null || r === undefined ? [] : [failure('tools sent to the legacy reasoner: the reply reasons, as svc-chat (non-thinking) would not', res)];
    },
  },
};
