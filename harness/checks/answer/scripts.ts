import type { Failure } from '#harness/core/outcome.ts';
import type { SseEvent } from '#harness/core/sseFold.ts';
import type { Spec } from '#harness/spec/model.ts';
import type { CheckContext, CheckOutcome, CheckRequest, CheckResponse } from '../context.ts';
import { currentModels, defineCheck, supportsTools, type Check } from '../define.ts';
import { get, isObject } from '../support/body.ts';
import { inconclusive } from '../support/cooperation.ts';
import { failure, outcomeOf, pass, shown, statusDefect } from '../support/outcome.ts';
import { withRoom } from '../support/premises.ts';
import { chat } from '../support/requests.ts';
import { sample, settled, streamedCompletion, type SharedAnswer } from '../support/samples.ts';
import { mangled, repeatsText, SCRIPT_PROMPT, SCRIPT_SYSTEM, SCRIPT_TEXT, SCRIPT_TOOL, SCRIPT_TOOL_ARGUMENTS, SCRIPT_TOOL_RESULT, SCRIPT_WORDS } from '../support/scripts.ts';

/** The check of requests in other scripts: the stop check in other scripts hands it a prompt refused with and without `stop`. */
export const SCRIPTS_ANSWERED = 'answer.non-ascii.answered-intact';

/** The same body with every character outside ASCII left out (accents stripped first): the request's ASCII twin. */
function asciiTwin(value: unknown): unknown {
  if (typeof value === 'string') return value.normalize('NFD').replace(/[^\x00-\x7f]/g, '');
  if (Array.isArray(value)) return value.map(asciiTwin);
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, asciiTwin(v)]));
  return value;
}

const twinOf = (r: CheckRequest): CheckRequest => ({ ...r, body: asciiTwin(r.body) });

/** The conversation of a tool round trip in other scripts: the tool's description, the call's arguments and its result. */
function toolRoundTrip(ctx: CheckContext): CheckRequest {
  const call = { id: 'call_ortsuche_1', type: 'function', function: { name: SCRIPT_TOOL.function.name, arguments: SCRIPT_TOOL_ARGUMENTS } };
  return withRoom(chat(ctx, {
    messages: [
      { role: 'user', content: 'Wo liegt Zürich? 東京は? Use lookup_place.' },
      { role: 'assistant', content: '', tool_calls: [call] },
      { role: 'tool', tool_call_id: call.id, content: SCRIPT_TOOL_RESULT },
    ],
    tools: [SCRIPT_TOOL],
  }));
}

/** One exchange judged: failures, what was judged of it, or why nothing was. */
interface Judged {
  failures: Failure[];
  judged: string[];
  notJudged: string[];
}

const nothing = (why: string): Judged => ({ failures: [], judged: [], notJudged: [why] });

/**
 * A request in other scripts answered otherwise than 200, where its ASCII twin (the same request
 * with those characters left out) was answered 200: the script is what was refused. Where the twin
 * is refused too, what refused it is not the script: nothing is judged.
 */
function refused(what: string, res: CheckResponse, twin: CheckResponse): Judged {
  if (twin.status !== 200) return nothing(`${what} was answered HTTP ${res.status}, and its ASCII twin HTTP ${twin.status} too: what was refused is not the script`);
  return { failures: [failure(`${what}, a valid request, was answered HTTP ${res.status}, while the same request with its characters outside ASCII left out was answered 200`, res, statusDefect(res))], judged: [`${what}: refused`], notJudged: [] };
}

/** A text of the answer judged as characters: mangled fails; repeated as sent is judged intact; otherwise only the mangling was judged. */
function judgeText(what: string, text: unknown, expected: string, res: CheckResponse): Judged {
  if (typeof text !== 'string' || text === '') return nothing(`${what} has no text content (${shown(text)}) to judge as characters`);
  const wrong = mangled(text);
  if (wrong) return { failures: [failure(`${what} is mangled: ${wrong}`, res, { path: '/choices/0/message/content' })], judged: [what], notJudged: [] };
  return repeatsText(text, expected)
    ? { failures: [], judged: [`${what}: repeated intact`], notJudged: [] }
    : { failures: [], judged: [`${what}: no mangled character`], notJudged: [`${what} did not repeat the text (${shown(text)}), so only its characters were judged, not that they are the ones sent`] };
}

async function judgePlain(what: string, answer: Promise<SharedAnswer>, twin: Promise<SharedAnswer>, expected: string, path: (body: unknown) => unknown): Promise<Judged> {
  const { res, body, unreadable } = await answer;
  if (res.status !== 200) return refused(what, res, (await twin).res);
  if (unreadable !== undefined) return { failures: [failure(`${what} was answered 200, but ${unreadable}`, res)], judged: [what], notJudged: [] };
  return judgeText(what, path(body), expected, res);
}

/**
 * A stream judged delta by delta: an event whose bytes are not UTF-8 (a character's bytes split
 * between two events), and a `content` delta holding half a surrogate pair or U+FFFD, are mangled
 * even where the pieces would add up; then the text they add up to is judged as a body's.
 */
async function judgeStream(what: string, answer: Promise<SharedAnswer>, twin: Promise<SharedAnswer>): Promise<Judged> {
  const { res, events } = await answer;
  if (res.status !== 200) return refused(what, res, (await twin).res);
  const data = (events ?? []).filter((e): e is SseEvent => e.kind === 'data');
  if (data.length === 0) return nothing(`${what} was answered 200 with no stream event`);
  const failures: Failure[] = [];
  let text = '';
  for (const [i, e] of data.entries()) {
    if (e.invalidUtf8) {
      failures.push(failure(`${what}: event ${i} holds bytes that are not UTF-8 (a character's bytes split between events, or sent in another encoding): ${shown(e.data)}`, res));
      break;
    }
    let chunk: unknown;
    try {
      chunk = JSON.parse(e.data);
    } catch {
      continue; // A malformed event is the stream checks' finding.
    }
    const piece = get(chunk, 'choices', 0, 'delta', 'content');
    if (typeof piece !== 'string') continue;
    const wrong = mangled(piece, []);
    if (wrong) {
      failures.push(failure(`${what}: the \`content\` delta of event ${i} is mangled: ${wrong}`, res));
      break;
    }
    text += piece;
  }
  if (failures.length > 0) return { failures, judged: [what], notJudged: [] };
  return judgeText(`${what}, assembled from its deltas`, text, SCRIPT_TEXT, res);
}

/**
 * Text as users write it: a request whose system message, prompt, tool description, tool-call
 * arguments and tool result hold accented Latin, CJK, emoji, right-to-left text and combining marks
 * is a valid request (bodies are JSON, content is a string), so it is answered as its ASCII twin is;
 * and the answer's text is characters, never bytes misread, half a character or U+FFFD. Plain,
 * streamed and (where the model takes tools) a tool round trip, all sent at once with their twins.
 */
export function scriptChecks(_spec: Spec): Check[] {
  return [
    defineCheck({
      id: SCRIPTS_ANSWERED,
      title: 'a request in other scripts (accents, CJK, emoji, right-to-left, combining marks) is answered as its ASCII twin is, its text intact',
      severity: 'must',
      basis: { entailed: 'bodies are JSON and a message\'s content is a string: text in any script is a valid request, and the answer\'s content is a string of those characters (JSON text is exchanged as UTF-8, RFC 8259)' },
      specRefs: ['objects.chat_completion_request.fields.messages', 'objects.assistant_message.fields.content'],
      appliesTo: currentModels,
      async run(ctx): Promise<CheckOutcome> {
        const plain = withRoom(chat(ctx, { messages: [{ role: 'system', content: SCRIPT_SYSTEM }, { role: 'user', content: SCRIPT_PROMPT }] }));
        const streamed: CheckRequest = { ...plain, body: { ...(plain.body as object), stream: true } };
        const tools = supportsTools(ctx.spec.models[ctx.model]!) ? toolRoundTrip(ctx) : undefined;
        // Every request and every twin at once: one round trip. The stream's twin is the run's shared stream.
        const asked = {
          plain: sample(ctx, plain),
          plainTwin: sample(ctx, twinOf(plain)),
          stream: sample(ctx, streamed, 'events'),
          streamTwin: streamedCompletion(ctx),
          tool: tools && sample(ctx, tools),
          toolTwin: tools && sample(ctx, twinOf(tools)),
        };
        const parts = await Promise.all([
          judgePlain('the answer to a prompt in other scripts', asked.plain, asked.plainTwin, SCRIPT_TEXT, (b) => get(b, 'choices', 0, 'message', 'content')),
          judgeStream('the streamed answer to it', asked.stream, asked.streamTwin),
          ...(asked.tool && asked.toolTwin ? [judgePlain('the answer to a tool round trip in other scripts (description, arguments, result)', asked.tool, asked.toolTwin, SCRIPT_TOOL_RESULT, (b) => get(b, 'choices', 0, 'message', 'content'))] : []),
        ]);
        await settled(...Object.values(asked));
        const failures = parts.flatMap((p) => p.failures);
        if (failures.length > 0) return outcomeOf(failures);
        const judged = parts.flatMap((p) => p.judged);
        const notJudged = parts.flatMap((p) => p.notJudged);
        if (judged.length === 0) return inconclusive(notJudged.join('; '));
        return pass(`${judged.length} answer(s) to text in ${Object.keys(SCRIPT_WORDS).join(', ')} judged as characters (${judged.join('; ')})${notJudged.length > 0 ? `; not judged: ${notJudged.join('; ')}` : ''}`, judged.length);
      },
    }),
  ];
}
