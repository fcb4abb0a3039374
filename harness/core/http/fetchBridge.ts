import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A fetch handler served on node:http, so a client reaches it over a real socket. */
export interface FetchServer {
  url: string;
  /** Ends every connection, streams included. */
  close(): Promise<void>;
}

export interface ServeFetchOptions {
  /** 0 (default): an ephemeral port. */
  port?: number;
  /** Loopback by default. */
  host?: string;
  /** The answer when `handle` throws before anything was sent; once headers are out the connection is dropped. */
  failure: (error: unknown) => Response;
  /**
   * Whether node:http adds a Date header (of the machine's clock) to an answer that has none:
   * true by default; a replay passes false, since its answers carry their recorded Date, or none.
   */
  sendDate?: boolean;
}

/**
 * Serves `handle` (fetch Request -> Response) on node:http; resolves once it listens. A
 * `Response.error()` answer is a network error in fetch terms, so the connection is dropped. A
 * request that fails outside `handle` (the client left mid-body) never ends the process.
 */
export async function serveFetch(handle: (request: Request) => Promise<Response>, options: ServeFetchOptions): Promise<FetchServer> {
  const server = createServer((req, res) => {
    res.sendDate = options.sendDate ?? true;
    // The Request's signal aborts when its client goes away before the answer is whole: a handler
    // that keeps a request waiting (the emulator's queue, a hung fault) then lets it go.
    const gone = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) gone.abort();
    });
    answer(req, res, gone.signal).catch((error: unknown) => abandon(res, () => options.failure(error)));
  });
  async function answer(req: IncomingMessage, res: ServerResponse, signal: AbortSignal): Promise<void> {
    const response = await handle(toFetchRequest(req, await readBody(req), signal));
    if (response.type === 'error') {
      req.socket.destroy();
      return;
    }
    await writeFetchResponse(response, res);
  }
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Answered with `failure()` when nothing was sent yet, else the connection is closed. */
function abandon(res: ServerResponse, failure: () => Response): void {
  if (res.destroyed) return;
  if (res.headersSent) {
    res.destroy();
    return;
  }
  writeFetchResponse(failure(), res).catch(() => res.destroy());
}

/**
 * A node:http request (its body already read) as a fetch Request, with `signal` made in one go: a
 * Request made from another (to add a signal) tees its body, a third of the emulator's work per request.
 */
export function toFetchRequest(req: IncomingMessage, body: Buffer, signal?: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const method = req.method ?? 'GET';
  return new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, {
    method,
    headers,
    ...(signal === undefined ? {} : { signal }),
    ...(method === 'GET' || method === 'HEAD' ? {} : { body }),
  });
}

/** A fetch Response written to node:http as it comes, a stream chunk by chunk; a client leaving cancels it. */
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
    // The client went away mid-stream, or the body broke off: either way the connection is broken,
    // never ended as if the answer were whole (a cut stream must reach the client as a cut).
    res.destroy();
    return;
  }
  res.end();
}
