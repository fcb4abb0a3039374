import { createRequire } from 'node:module';
import { copyOf, type Copy } from '#harness/core/bundledCopy.ts';
import type { CheckContext, CheckOutcome } from '../context.ts';
import { defineCheck, type Check } from '../define.ts';
import { get } from '../support/body.ts';
import { replayFetch } from '../support/clientReplay.ts';
import type { Failure } from '#harness/core/outcome.ts';
import { failure, shown, skip } from '../support/outcome.ts';
import type { SharedAnswer } from '../support/samples.ts';
import type { Handed } from './handed.ts';

/** A pinned client library as the checks use it: its module and version, or why it is not there. */
export type Loaded<M> = { module: M; version: string } | { missing: string };

/**
 * The client, imported once per process when one of its checks first runs: a missing one (an
 * optional dependency left out) is a reason to skip, never a crash.
 */
export function loaderOf<M>(name: string, load: () => Promise<[M, { VERSION: string }]>): () => Promise<Loaded<M>> {
  let loaded: Promise<Loaded<M>> | undefined;
  return () =>
    (loaded ??= load().then(
      ([module, { VERSION }]) => ({ module, version: VERSION }),
      (err: unknown) => ({ missing: `the ${name} client is not installed (${String((err as Error).message ?? err).split('\n')[0]}): it is an optional dependency; \`npm install ${name}\` adds it` }),
    ));
}

const requireFromHere = createRequire(import.meta.url);

/** Where the build copies the default clients: beside this module, once bundled (none beside the sources). */
const BESIDE = new URL('./', import.meta.url);

/** The one-file copy of a client the build writes beside the bundle (writeClientCopies.ts), with its V8 code cache (core/codeCache.ts). */
export const clientCopyFile = (name: string): string => `client-${name.replace(/^@/, '').replace(/\//g, '-')}.cjs`;

/** What a client's copy exports: its module, beside the version it was copied from. */
export interface ClientCopy<M> extends Copy {
  client: M;
}

/**
 * A client and its version, as installed: the package's CommonJS build (the publisher compiles both
 * builds from one source; Node 20's ESM loader pays per file, and the anthropic client's ESM build
 * is 248 of them), or the build's one-file copy of it, compiled from its code cache, when that is
 * of the installed version: it loads in a fifth of the time. A client that is not installed throws
 * here (its version module is asked first, whatever the copy), which loaderOf turns into a skip.
 */
export async function requiredClient<M>(name: string, dir: URL = BESIDE): Promise<[M, { VERSION: string }]> {
  const installed = requireFromHere(`${name}/version`) as { VERSION: string };
  const copy = copyOf<ClientCopy<M>>(dir, clientCopyFile(name), installed.VERSION);
  return [copy ? copy.client : (requireFromHere(name) as M), installed];
}

/**
 * How every replayed client is made, whatever the SDK: a key and a host that reach nothing (its
 * requests all go to the replay `fetch`), no retries (an answer is judged as it came), and its log
 * off (what it makes of the answer is the verdict, not lines on the harness's stderr).
 */
export const REPLAYED_CLIENT = { apiKey: 'sk-replayed', baseURL: 'http://replayed.invalid', maxRetries: 0, logLevel: 'off' } as const;

/**
 * One client library as its checks load it: its name, the package npm installs it from (the
 * install hint of a missing one), and the loader of the module the run uses, imported once per
 * process. `loadFor(given)` is that loader, or one of a test's own import (a client missing, an
 * older version), each imported once too.
 */
export interface ClientAdapter<M, N extends string> {
  client: { readonly name: N; readonly package: string; readonly load: () => Promise<Loaded<M>> };
  loadFor(given: () => Promise<[M, { VERSION: string }]>): () => Promise<Loaded<M>>;
}

export function clientAdapter<M, const N extends string>(name: N, packages: string, load: () => Promise<[M, { VERSION: string }]>, npmPackage = packages): ClientAdapter<M, N> {
  const client = { name, package: npmPackage, load: loaderOf(packages, load) };
  return { client, loadFor: (given) => (given === load ? client.load : loaderOf(packages, given)) };
}

/**
 * A client whose module's default export is its class, made as a user makes it (`new X({ baseURL,
 * apiKey, maxRetries: 0 })`): over the replaying fetch in the run, and written so in a reproducer script.
 */
export function defaultExportClient<M extends { default: new (options: object) => C }, C>(npmPackage: string, className: string, route: string): Pick<ClientCheckDef<M, C>, 'make' | 'script'> {
  return {
    make: (module: M, fetch: typeof globalThis.fetch): C => new module.default({ ...REPLAYED_CLIENT, fetch }),
    script: {
      package: npmPackage,
      route,
      setup: (baseURL: string, key: string) => `import ${className} from '${npmPackage}';\nconst client = new ${className}({ baseURL: ${JSON.stringify(baseURL)}, apiKey: process.env.${key}, maxRetries: 0 });`,
    },
  };
}

/** What a client check's judge is handed: the client's module and version, and a client reading one answer. */
export interface ClientUse<M, C> {
  module: M;
  version: string;
  /** A client whose every request is answered with this answer (support/clientReplay.ts). */
  clientFor(seen: SharedAnswer): C;
  /** A failure that names the client: `breaks <name>@<version>: <what> — <said>` (`said`: the client's own words, context). */
  breaks(what: string, seen: SharedAnswer, said?: string): CheckOutcome;
  /** The client threw on the answer (`threw`: what it threw): the capability's words for it. */
  threw(seen: SharedAnswer, threw: string): CheckOutcome;
  /** The failures of the fields the client exposes that differ from what the harness read. */
  differences(seen: SharedAnswer, fields: [string, unknown, unknown][]): CheckOutcome;
  /**
   * A refusal handed to the client by `call`: it must raise its own `apiError`, with the endpoint's
   * status and the service's message (where the envelope puts it, or where a flat body does).
   */
  refusal(seen: SharedAnswer, call: () => Promise<unknown>, apiError: new (...args: never[]) => ClientError): Promise<CheckOutcome>;
}

/** What the official clients' typed errors carry. */
interface ClientError {
  status?: number | undefined;
  message: string;
  error?: unknown;
}

/** How a user of the client makes one and calls the endpoint with it: what a failure's TypeScript reproducer is written from. */
export interface ClientScript {
  /** The package to install. */
  package: string;
  /** What the client appends to the base URL it is given (the rest of the request's URL is that base). */
  route: string;
  /** The import and the client, made with `baseURL` and the key read from `process.env[keyVariable]`. */
  setup(baseURL: string, keyVariable: string): string;
}

export interface ClientCheckDef<M, C, S extends SharedAnswer = SharedAnswer> {
  /** The client's name in check ids and messages (`openai`, `anthropic`). */
  client: string;
  capability: string;
  title: string;
  /** The spec entries whose answers the client is handed (a fault breaking one may break the client). */
  reads: readonly string[];
  /** How a client that throws on the answer is said to break (capabilities.ts). */
  throws?: string;
  appliesTo: Check['appliesTo'];
  load: () => Promise<Loaded<M>>;
  /** How the client is made in a reproducer, and the call (an expression of `client` and `params`) this check hands the answer to. */
  script?: ClientScript;
  call?: string;
  /** A client of `module` whose requests all go to `fetch`. */
  make(module: M, fetch: typeof globalThis.fetch): C;
  /** The answer the client is handed, or why there is none to hand (handed.ts). */
  hands(ctx: CheckContext): Promise<Handed<S>>;
  /** What the client makes of `seen`, compared with what the harness read from it. */
  judge(seen: S, use: ClientUse<M, C>): Promise<CheckOutcome>;
}

/**
 * A check of what a pinned client makes of an answer the run already has. Advisory: the
 * description names no client, so a client that breaks is a compatibility finding, never a failure
 * of the contract by itself.
 */
export function clientCheck<M, C, S extends SharedAnswer>(def: ClientCheckDef<M, C, S>): Check {
  return defineCheck({
    id: `client.${def.client}.${def.capability}`,
    title: def.title,
    severity: 'advisory',
    basis: 'unspecified',
    specRefs: [...def.reads],
    appliesTo: def.appliesTo,
    async run(ctx) {
      const found = await def.load();
      if ('missing' in found) return skip(found.missing, 'out-of-scope');
      const label = `${def.client}@${found.version}`;
      const broken = (what: string, seen: SharedAnswer, said?: string) =>
        failure(`breaks ${label}: ${what}${said === undefined ? '' : ` — ${said}`}`, seen.res, { ...reproducerOf(def, found.version, seen, ctx.options.keyVariable), defect: { kind: 'client', client: def.client, version: found.version, what } });
      const breaks = (what: string, seen: SharedAnswer, said?: string): CheckOutcome => ({ verdict: 'fail', failures: [broken(what, seen, said)] });
      const handed = await def.hands(ctx);
      if ('outcome' in handed) return handed.outcome;
      return def.judge(handed.seen, {
        module: found.module,
        version: found.version,
        clientFor: (seen) => def.make(found.module, replayOf(seen)),
        breaks,
        threw: (seen, threw) => breaks(def.throws ?? 'it throws on the answer', seen, threw),
        async refusal(seen, call, apiError) {
          const said = get(seen.body, 'error', 'message') ?? get(seen.body, 'message');
          const got = await caught(call);
          if (!('threw' in got)) return breaks(`the endpoint refused with HTTP ${seen.res.status}, but the client returned as if it had answered`, seen);
          const error = got.error;
          if (!(error instanceof apiError)) return breaks(`it raises no APIError for the refusal`, seen, `it raised ${got.threw}`);
          if (error.status !== seen.res.status) return breaks(`its APIError says status ${shown(error.status)}, the endpoint answered ${seen.res.status}`, seen);
          if (typeof said !== 'string') return breaks(`the refusal carries no message for the client to pass on`, seen, `the client says ${shown(error.message)}`);
          if (!carriesMessage(error, said)) return breaks(`the service's message ${shown(said)} is lost`, seen, `the client says ${shown(error.message)}`);
          return { verdict: 'pass' };
        },
        differences: (seen, fields) => {
          const differ = fields.filter(([, client, harness]) => JSON.stringify(client ?? null) !== JSON.stringify(harness ?? null));
          return differ.length === 0 ? { verdict: 'pass' } : { verdict: 'fail', failures: differ.map(([name, client, harness]) => broken(`the client gives ${name} ${shown(client)} where the answer says ${shown(harness)}`, seen)) };
        },
      });
    },
  });
}

/** No whole answer to replay: the client is handed a network failure of the harness's own, never the network. */
const replayOf = (seen: SharedAnswer): typeof fetch => replayFetch(seen.res.exchange) ?? (async () => Response.error());

/** What a client call came to: its value, or what it threw (name and message) and the error itself. */
export async function caught<T>(run: () => Promise<T>): Promise<{ value: T } | { threw: string; error: unknown }> {
  try {
    return { value: await run() };
  } catch (error) {
    return { threw: `${(error as Error).name ?? 'Error'}: ${(error as Error).message ?? String(error)}`, error };
  }
}

/** A message's tool calls as a client that renames their fields is compared on them: id and function name. */
export const toolCallsOf = (message: unknown): unknown[] => ((get(message, 'tool_calls') as unknown[] | undefined) ?? []).map((call) => [get(call, 'id'), get(call, 'function', 'name')]);

/** The request the harness sent, as the client's parameters (what a user of the client would have passed). */
export const paramsOf = (seen: SharedAnswer): unknown => seen.res.exchange.request.body ?? {};

/**
 * Whether a client's error hands its caller the service's message: in its own message (openai's
 * `400 <message>`), or in the error body it exposes (`error.error`, where anthropic's keeps the
 * envelope and writes the body as JSON into its message).
 */
function carriesMessage(error: ClientError, said: string): boolean {
  return error.message.includes(said) || (JSON.stringify(error.error ?? null) ?? '').includes(JSON.stringify(said));
}

/**
 * The TypeScript a user of the client would run to see the failure for themselves: the request the
 * harness sent, through the client, against the endpoint that answered it (its base: the request's
 * URL less what the client appends), the key read from the run's variable, never written.
 */
function reproducerOf<M, C, S extends SharedAnswer>(def: ClientCheckDef<M, C, S>, version: string, seen: SharedAnswer, keyVariable: string): Partial<Failure> {
  const { script, call } = def;
  const url = seen.res.exchange.request.url;
  if (script === undefined || call === undefined || !url.endsWith(script.route)) return {};
  const code = [
    `// ${def.client}@${version}: npm install ${script.package}@${version}, then ${keyVariable}=... npx tsx this-file.mts`,
    script.setup(url.slice(0, -script.route.length), keyVariable),
    `const params = ${JSON.stringify(paramsOf(seen), null, 2)};`,
    'try {',
    `  console.log(await ${call});`,
    '} catch (error) {',
    '  console.error(error);',
    '}',
  ].join('\n');
  // The curl beside it is written from the evidence when the result is made (runner/execute.ts).
  return { reproducer: { curl: '', client: code } };
}
