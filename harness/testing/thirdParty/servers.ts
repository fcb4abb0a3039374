// Two third-party OpenAI-compatible mock servers from npm, started in-process on 127.0.0.1 at a
// free port, so the harness (or a test) can be pointed at something it did not write itself.
// FINDINGS.md beside this file records, by hand with curl, how each of them truly answers.
//
//   startAimock()          @copilotkit/aimock (LLMock), canned answers from aimock-fixtures.json
//   startMockOpenAiApi()   mock-openai-api (an Express app with built-in canned answers)
//
// Both return { baseUrl, close() }. baseUrl is what a user would pass to the harness as {base_url}.
import { createRequire } from 'node:module';
import http from 'node:http';
import type net from 'node:net';
import { fileURLToPath } from 'node:url';
import { LLMock } from '@copilotkit/aimock';

export interface ThirdPartyServer {
  /** What a user would pass to the harness as {base_url} (see each starter for why this one). */
  baseUrl: string;
  /** The bare origin, `http://127.0.0.1:<port>`. */
  origin: string;
  /** Stops the server and drops its open connections; safe to call twice. */
  close(): Promise<void>;
}

/** The fixture set aimock is loaded with: one tool call, and a catch-all per svc- model id. */
export const AIMOCK_FIXTURES = fileURLToPath(new URL('./aimock-fixtures.json', import.meta.url));

/** The model ids aimock answers to with AIMOCK_FIXTURES (anything else is a fixture miss: 404). */
export const AIMOCK_MODELS = ['svc-v4-flash', 'svc-v4-pro', 'svc-chat', 'svc-reasoner'] as const;

/** mock-openai-api's own chat model ids (hard-coded in the package; it answers 400 to any other). */
export const MOCK_OPENAI_API_MODELS = ['mock-gpt-thinking', 'mock-gpt-thinking-tag', 'gpt-4-mock', 'mock-gpt-markdown'] as const;

export interface AimockOptions {
  /** Inbound keys aimock accepts (it then answers 401 to others). Default: none, every request is let in. */
  apiKeys?: readonly string[];
  /** A fixture file to load instead of AIMOCK_FIXTURES. */
  fixtures?: string;
}

/**
 * @copilotkit/aimock, in-process (its documented programmatic API: `new LLMock({ port: 0 })`).
 *
 * baseUrl is the bare origin `http://127.0.0.1:<port>`: aimock serves chat at /v1/chat/completions
 * and rewrites any other path ending in /chat/completions to it, so {base_url}/chat/completions,
 * {base_url}/v1/chat/completions and {base_url}/beta/chat/completions all answer. Its model list is
 * only at /v1/models (so {base_url}/models is 404), and its messages format is at /v1/messages, so
 * pass `--messages-base-url <origin>` (the harness posts to {messages_base_url}/v1/messages).
 * `${origin}/v1` is the other choice: /models answers there but the /v1 alias and beta paths do not.
 */
export async function startAimock(options: AimockOptions = {}): Promise<ThirdPartyServer> {
  const mock = new LLMock({
    host: '127.0.0.1',
    port: 0,
    logLevel: 'silent',
    ...(options.apiKeys ? { auth: { apiKeys: options.apiKeys } } : {}),
  });
  mock.loadFixtureFile(options.fixtures ?? AIMOCK_FIXTURES);
  const origin = await mock.start();
  await waitUntilAnswers(`${origin}/health`);
  let closed: Promise<void> | undefined;
  return {
    baseUrl: origin,
    origin,
    close: () => (closed ??= mock.stop()),
  };
}

/** The Express app mock-openai-api exports from dist/app.js (CommonJS, `exports.default`). */
type ExpressApp = http.RequestListener;

/**
 * mock-openai-api, in-process: its dist/app.js is the Express app that its CLI (`dist/cli.js
 * --port N --host H`) listens with; here it is served by a node:http server on 127.0.0.1:0.
 *
 * baseUrl is the bare origin: it serves /chat/completions and /models at the root as well as
 * under /v1, so both {base_url} and the {base_url}/v1 alias answer. Nothing else of the
 * description exists there (no /user/balance, no /beta, no messages format). Its chat model ids are
 * fixed (MOCK_OPENAI_API_MODELS): run the harness with `--model-map svc-v4-flash=mock-gpt-thinking`.
 */
export async function startMockOpenAiApi(): Promise<ThirdPartyServer> {
  const require = createRequire(import.meta.url);
  const app = (require('mock-openai-api/dist/app.js') as { default: ExpressApp }).default;
  const server = http.createServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as net.AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  await waitUntilAnswers(`${origin}/health`);
  let closed: Promise<void> | undefined;
  return {
    baseUrl: origin,
    origin,
    close: () =>
      (closed ??= new Promise<void>((resolve, reject) => {
        // Its gpt-4-mock stream writes a second phase 1 s after the first: drop such connections.
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      })),
  };
}

/** Polls url until it answers any HTTP status (bounded: 50 tries, 5 s in all). */
async function waitUntilAnswers(url: string): Promise<void> {
  let last: unknown;
  for (let i = 0; i < 50; i += 1) {
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      return;
    } catch (err) {
      last = err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`${url} did not answer: ${String(last)}`);
}
