// Run by the build (scripts/build.mjs) from the bundle it just made: undici's Agent and request API
// (undiciAgent.ts AGENT_SOURCE) as one file beside the bundle with its code cache
// (core/bundledCopy.ts), which the transport loads when it is of the installed undici.
import { build } from 'esbuild';
import { writeCopy } from '#harness/core/bundledCopy.ts';
import { AGENT_COPY_FILE, AGENT_SOURCE, type AgentCopy } from './undiciAgent.ts';

// An agent made and closed, as a run makes one, so what that compiles is in the cache.
const failed = await writeCopy(build, AGENT_SOURCE, new URL(AGENT_COPY_FILE, new URL('./', import.meta.url)), new URL('../../', import.meta.url), (exports) => void new (exports as AgentCopy).Agent().close());
// The transport loads undici from node_modules then: slower to start, the same Agent.
console.log(failed === undefined ? "build: undici's Agent copied" : `build: undici's Agent is not copied beside the bundle (${failed})`);
