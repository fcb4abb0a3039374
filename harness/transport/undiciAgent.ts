import { createRequire } from 'node:module';
import type { Agent as UndiciAgent } from 'undici';

const requireHere = createRequire(import.meta.url);

/**
 * undici's Agent with its request API, and nothing else of undici: its index also loads fetch,
 * WebSocket, EventSource, cookies, caches and mocks, a third of a loopback run's start-up on Node 20
 * (about 50 ms) for nothing the transport uses. The index does exactly this assignment; a layout
 * that moved (undici is pinned, so only an upgrade could move it) falls back to the index.
 */
function loadAgent(): typeof UndiciAgent {
  try {
    const dispatcher = requireHere('undici/lib/dispatcher/dispatcher.js') as { prototype: object };
    Object.assign(dispatcher.prototype, requireHere('undici/lib/api/index.js'));
    return requireHere('undici/lib/dispatcher/agent.js') as typeof UndiciAgent;
  } catch {
    return (requireHere('undici') as { Agent: typeof UndiciAgent }).Agent;
  }
}

export const Agent = loadAgent();
