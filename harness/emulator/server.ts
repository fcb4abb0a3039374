import { randomBytes } from 'node:crypto';
import { serveFetch } from '#harness/core/http/fetchBridge.ts';
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
  // A request whose client went away is let go (its Request's signal): serveFetch aborts it.
  const server = await serveFetch(createApp(ctx), { port: options.port ?? 0, host: options.host ?? '127.0.0.1', failure: internalError });
  return { url: server.url, apiKey: apiKeys[0]!, ctx, close: server.close };
}

function internalError(): Response {
  const body = { error: { message: 'internal error: the request could not be served', type: 'server_error', code: 'internal_error', param: null } };
  return Response.json(body, { status: 500, headers: { connection: 'close' } });
}
