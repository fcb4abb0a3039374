import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
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
  const app = createApp(ctx);
  const server = createServer((req, res) => {
    serve(app, req, res).catch(() => abandon(res));
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}`,
    apiKey: apiKeys[0]!,
    ctx,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * A request that failed outside the app: the client went away mid-body (node:http rejects the read
 * with "aborted"), or node:http refused what the app answered. Answered 500 when nothing was sent
 * yet, else the connection is closed; either way the server serves on (an unhandled rejection
 * would end the process).
 */
function abandon(res: ServerResponse): void {
  if (res.destroyed) return;
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify({ error: { message: 'internal error: the request could not be served', type: 'server_error', code: 'internal_error', param: null } });
  res.writeHead(500, { 'content-type': 'application/json', connection: 'close' });
  res.end(body);
}

async function serve(app: (req: Request) => Promise<Response>, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  await writeFetchResponse(await app(toFetchRequest(req, Buffer.concat(chunks))), res);
}

/** A node:http request (its body already read) as the fetch Request the app takes. */
export function toFetchRequest(req: IncomingMessage, body: Buffer): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const method = req.method ?? 'GET';
  return new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, {
    method,
    headers,
    ...(method === 'GET' || method === 'HEAD' ? {} : { body }),
  });
}

/** The app's answer written to node:http as it comes, a stream chunk by chunk; a client leaving cancels it. */
export async function writeFetchResponse(response: Response, res: ServerResponse): Promise<void> {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  res.on('close', () => void reader.cancel().catch(() => undefined));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      res.write(value);
    }
  } catch {
    // The client went away mid-stream; nothing left to answer.
  }
  res.end();
}
