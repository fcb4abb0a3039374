import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toFetchRequest, writeFetchResponse } from '#harness/core/http/fetchBridge.ts';
import { createApp } from './app.ts';
import { createContext, type EmulatorContext } from './context.ts';
import type { EmulatorOptions } from './options.ts';

export interface StartOptions extends Omit<EmulatorOptions, 'apiKeys'> {
  apiKeys?: readonly string[];
  /** 0 (default): an ephemeral port. */
  port?: number;
  /** Loopback by default. */
  host?: string;
}

export interface RunningEmulator {
  url: string;
  /** The first accepted key (generated when none was given). */
  apiKey: string;
  ctx: EmulatorContext;
  close(): Promise<void>;
}

/** A key of the description's `sk-` shape, random, for an emulator started without one. */
export function generateKey(): string {
  return `sk-emu-${randomBytes(16).toString('hex')}`;
}

/** Starts the emulator on node:http. Resolves once it listens; `close` ends every connection. */
export async function startEmulator(options: StartOptions): Promise<RunningEmulator> {
  const apiKeys = options.apiKeys && options.apiKeys.length > 0 ? [...options.apiKeys] : [generateKey()];
  const ctx = createContext({ ...options, apiKeys });
  const server = await serve(createApp(ctx), options.port ?? 0, options.host ?? '127.0.0.1');
  return { url: server.url, apiKey: apiKeys[0]!, ctx, close: server.close };
}

/**
 * The app on node:http, as core/http/fetchBridge.ts `serveFetch` serves a handler (its conversions
 * both ways), but with each Request's signal aborted when its client goes away before the answer
 * is whole: a request the emulator keeps waiting (its capacity's queue, the `load-requests-hung`
 * fault) then stops counting as in flight. `serveFetch` hands its handler no such signal.
 */
async function serve(app: (req: Request) => Promise<Response>, port: number, host: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const gone = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) gone.abort();
    });
    answer(app, req, res, gone.signal).catch(() => abandon(res));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const { port: bound } = server.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${bound}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function answer(app: (req: Request) => Promise<Response>, req: IncomingMessage, res: ServerResponse, signal: AbortSignal): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const response = await app(new Request(toFetchRequest(req, Buffer.concat(chunks)), { signal }));
  // A network error in fetch terms: the connection is dropped.
  if (response.type === 'error') {
    req.socket.destroy();
    return;
  }
  await writeFetchResponse(response, res);
}

/**
 * A request that failed outside the app: the client went away mid-body, or node:http refused what
 * the app answered. The emulator serves on (an unhandled rejection would end the process): a 500
 * when nothing was sent yet, else the connection is closed.
 */
function abandon(res: ServerResponse): void {
  if (res.destroyed) return;
  if (res.headersSent) {
    res.destroy();
    return;
  }
  writeFetchResponse(internalError(), res).catch(() => res.destroy());
}

function internalError(): Response {
  const body = { error: { message: 'internal error: the request could not be served', type: 'server_error', code: 'internal_error', param: null } };
  return Response.json(body, { status: 500, headers: { connection: 'close' } });
}
