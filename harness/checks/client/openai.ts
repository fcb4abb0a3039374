import type { Spec } from '#harness/spec/model.ts';
import type { CheckContext, CheckOutcome } from '../context.ts';
import { currentModels, defaultModelOnly, defineCheck, type Check } from '../define.ts';
import { get } from '../support/body.ts';
import { chatBody } from '../support/requests.ts';
import { replayFetch } from '../support/clientReplay.ts';
import { inconclusive } from '../support/cooperation.ts';
import { failure, outcomeOf, shown, skip } from '../support/outcome.ts';
import { plainCompletion, sample, streamedCompletion, type SharedAnswer } from '../support/samples.ts';

/** The `openai` package as the checks use it: imported when a check runs, so a missing one is a skip, not a crash. */
type OpenAIModule = typeof import('openai');
type Client = InstanceType<OpenAIModule['default']>;

type Loaded = { module: OpenAIModule; version: string } | { missing: string };

/** The installed client and its version: imported once per process, when a client check first runs. */
const importOpenai = (): Promise<[OpenAIModule, { VERSION: string }]> => Promise.all([import('openai'), import('openai/version')]);

function loader(load: typeof importOpenai): () => Promise<Loaded> {
  let loaded: Promise<Loaded> | undefined;
  return () =>
    (loaded ??= load().then(
      ([module, { VERSION }]) => ({ module, version: VERSION }),
      (err: unknown) => ({ missing: `the openai client is not installed (${String((err as Error).message ?? err).split('\n')[0]}): it is an optional dependency; \`npm install openai@6\` adds it` }),
    ));
}

/** What the description leaves open: it names no client. A client that breaks is a compatibility finding, advisory. */
const BASIS = 'unspecified' as const;

/**
 * Checks of what the official `openai` client (Node) makes of the answers the run already has: the
 * exact answer is handed to the real client through its `fetch` option (support/clientReplay.ts),
 * so no request is sent for them, and what the client exposes is compared with what the harness
 * read from the same answer.
 */
export function openaiClientChecks(_spec: Spec, load: typeof importOpenai = importOpenai): Check[] {
  const openai = loader(load);
  return [
    clientCheck(openai, 'chat', 'the official openai client reads a completion as the harness does: text, finish reason, tool calls and usage', ['objects.chat_completion'], currentModels, async (ctx, client, version) => {
      const seen = await plainCompletion(ctx);
      if (seen.res.status !== 200 || seen.body === undefined) return inconclusive(`the completion was answered HTTP ${seen.res.status}${seen.unreadable ? ` (${seen.unreadable})` : ''}; schema.chat-completion.matches-schema judges that answer`);
      const got = await caught(() => client(seen).chat.completions.create(paramsOf(seen) as never));
      if ('threw' in got) return breaks(version, `it throws on a completion the endpoint answered 200: ${got.threw}`, seen);
      if (typeof got.value === 'string') return breaks(version, `it hands back the answer as a string, not a completion: the answer is served as ${shown(seen.res.headers['content-type'])}`, seen);
      const message = get(seen.body, 'choices', 0, 'message');
      const differences = compare([
        ['content', get(got.value, 'choices', 0, 'message', 'content'), get(message, 'content')],
        ['finish_reason', get(got.value, 'choices', 0, 'finish_reason'), get(seen.body, 'choices', 0, 'finish_reason')],
        ['tool_calls', get(got.value, 'choices', 0, 'message', 'tool_calls'), get(message, 'tool_calls')],
        ['usage.total_tokens', get(got.value, 'usage', 'total_tokens'), get(seen.body, 'usage', 'total_tokens')],
      ]);
      return outcomeOf(differences.map((d) => failure(`breaks openai@${version}: ${d}`, seen.res)));
    }),
    clientCheck(openai, 'stream', 'the official openai client\'s stream helper assembles a streamed completion as the harness does', ['objects.chat_completion_chunk', 'objects.chunk_choice', 'streaming.events'], currentModels, async (ctx, client, version) => {
      const seen = await streamedCompletion(ctx);
      const stream = seen.stream;
      if (seen.res.status !== 200 || stream === undefined) return inconclusive(`the stream was answered HTTP ${seen.res.status}; stream.response.status-200 judges that answer`);
      if (stream.error !== undefined) return inconclusive(`the stream did not arrive whole (${stream.error}), so what it adds up to cannot be compared`);
      const got = await caught(async () => contained(client(seen).chat.completions.stream(paramsOf(seen) as never)).finalChatCompletion());
      if ('threw' in got) return breaks(version, `its stream helper throws on a stream the harness read to its end: ${got.threw}`, seen);
      const differences = compare([
        ['content', get(got.value, 'choices', 0, 'message', 'content') ?? '', stream.message.content.text],
        ['finish_reason', get(got.value, 'choices', 0, 'finish_reason'), stream.message.finishReason],
      ]);
      return outcomeOf(differences.map((d) => failure(`breaks openai@${version}: ${d}`, seen.res)));
    }),
    clientCheck(openai, 'error', 'the official openai client raises its typed error for a refusal, carrying the status and the service\'s message', ['objects.error_envelope'], defaultModelOnly, async (ctx, client, version, module) => {
      // The refusal schema.error-envelope.matches-schema judges: one answer for both.
      const seen = await sample(ctx, { base: 'base_url', method: 'POST', path: '/chat/completions', body: chatBody(ctx, { messages: [] }) });
      if (seen.res.status < 400) return inconclusive(`an empty \`messages\` was accepted (HTTP ${seen.res.status}): there is no refusal to hand the client`);
      // The service's message, where the envelope puts it, or where a flat body does.
      const said = get(seen.body, 'error', 'message') ?? get(seen.body, 'message');
      const got = await caught(() => client(seen).chat.completions.create(paramsOf(seen) as never));
      if (!('threw' in got)) return breaks(version, `the endpoint refused with HTTP ${seen.res.status}, but the client returned as if it had answered`, seen);
      const error = got.error;
      if (!(error instanceof module.default.APIError)) return breaks(version, `it raised ${got.threw}, not its APIError`, seen);
      const failures = [];
      if (error.status !== seen.res.status) failures.push(`its APIError says status ${shown(error.status)}, the endpoint answered ${seen.res.status}`);
      if (typeof said === 'string' && !error.message.includes(said)) failures.push(`the service's message ${shown(said)} is lost: the client says ${shown(error.message)}`);
      if (typeof said !== 'string') failures.push(`the refusal carries no message for the client to pass on (no \`error.message\`): the client says ${shown(error.message)}`);
      return outcomeOf(failures.map((f) => failure(`breaks openai@${version}: ${f}`, seen.res)));
    }),
  ];
}

type Judge = (ctx: CheckContext, client: (seen: SharedAnswer) => Client, version: string, module: OpenAIModule) => Promise<CheckOutcome>;

/** `reads`: the spec entries whose answers the client is handed (a fault breaking one of them may break the client). */
function clientCheck(openai: () => Promise<Loaded>, capability: string, title: string, reads: string[], appliesTo: Check['appliesTo'], judge: Judge): Check {
  return defineCheck({
    id: `client.openai.${capability}`,
    title,
    area: 'client',
    severity: 'advisory',
    basis: BASIS,
    specRefs: reads,
    appliesTo,
    async run(ctx) {
      const found = await openai();
      if ('missing' in found) return skip(found.missing, 'out-of-scope');
      const OpenAI = found.module.default;
      const client = (seen: SharedAnswer): Client => {
        const fetch = replayFetch(seen.res.exchange);
        // No answer to replay: the client is handed a refusal of the harness's own, never the network.
        // Its log is off: what it makes of the answer is the verdict, not lines on the harness's stderr.
        return new OpenAI({ apiKey: 'sk-replayed', baseURL: 'http://replayed.invalid', maxRetries: 0, logLevel: 'off', fetch: fetch ?? (async () => Response.error()) });
      };
      return judge(ctx, client, found.version, found.module);
    },
  });
}

/** The request the harness sent, as the client's parameters (what a user of the client would have passed). */
const paramsOf = (seen: SharedAnswer): unknown => seen.res.exchange.request.body ?? {};

/**
 * The stream helper, with its end contained: where a stream adds up to no message, openai@6 throws
 * from its own end-of-stream step as well as from `finalChatCompletion()`, and that copy is a
 * rejection nobody can handle (it would end the harness, as it ends a user's process). The one
 * `finalChatCompletion()` gives is the verdict; the other is caught here, before the helper runs it.
 */
function contained<T extends object>(stream: T): T {
  const own = stream as unknown as { _emitFinal?: () => void };
  const emitFinal = own._emitFinal;
  if (typeof emitFinal === 'function') {
    own._emitFinal = function (this: unknown) {
      try {
        emitFinal.call(this);
      } catch {
        // finalChatCompletion() rejects with the same error: that is the one judged.
      }
    };
  }
  return stream;
}

const breaks = (version: string, what: string, seen: SharedAnswer): CheckOutcome => ({ verdict: 'fail', failures: [failure(`breaks openai@${version}: ${what}`, seen.res)] });

async function caught<T>(run: () => Promise<T>): Promise<{ value: T } | { threw: string; error: unknown }> {
  try {
    return { value: await run() };
  } catch (error) {
    return { threw: `${(error as Error).name ?? 'Error'}: ${(error as Error).message ?? String(error)}`, error };
  }
}

/** Each field the client exposes that differs from what the harness read, as a sentence. */
function compare(fields: [string, unknown, unknown][]): string[] {
  return fields.filter(([, client, harness]) => JSON.stringify(client ?? null) !== JSON.stringify(harness ?? null)).map(([name, client, harness]) => `the client gives ${name} ${shown(client)} where the answer says ${shown(harness)}`);
}
