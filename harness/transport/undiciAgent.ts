import { createRequire } from 'node:module';
import type { Agent as UndiciAgent } from 'undici';
import { copyOf, type Copy } from '#harness/core/bundledCopy.ts';

const requireHere = createRequire(import.meta.url);

/**
 * undici's Agent with its request API, and nothing else of undici: its index also loads fetch,
 * WebSocket, EventSource, cookies, caches and mocks, a third of a loopback run's start-up on Node 20
 * (about 50 ms) for nothing the transport uses. `AGENT_SOURCE` does what the index does for them;
 * the build copies it beside the bundle as one file with its code cache (core/bundledCopy.ts,
 * writeAgentCopy.ts), which loads in a third of the time undici's 30 files take. Without a copy of
 * the installed undici (the sources, a build that could not copy it): undici's index.
 */
export const AGENT_SOURCE = `const dispatcher = require('undici/lib/dispatcher/dispatcher.js');
Object.assign(dispatcher.prototype, require('undici/lib/api/index.js'));
module.exports = { Agent: require('undici/lib/dispatcher/agent.js'), VERSION: require('undici/package.json').version };`;

/** The copy beside the bundle (none beside the sources). */
export const AGENT_COPY_FILE = 'undici-agent.cjs';

export interface AgentCopy extends Copy {
  Agent: typeof UndiciAgent;
}

function loadAgent(): typeof UndiciAgent {
  const installed = (requireHere('undici/package.json') as { version: string }).version;
  const copy = copyOf<AgentCopy>(new URL('./', import.meta.url), AGENT_COPY_FILE, installed);
  return copy?.Agent ?? (requireHere('undici') as { Agent: typeof UndiciAgent }).Agent;
}

export const Agent = loadAgent();
