// Run by the build (scripts/build.mjs) from the bundle it just made: undici's Agent and request API
// (undiciAgent.ts AGENT_SOURCE) as one file beside the bundle with its code cache
// (core/bundledCopy.ts), which the transport loads when it is of the installed undici.
import { build } from 'esbuild';
import { cacheCopy, copyBuildOptions } from '#harness/core/bundledCopy.ts';
import { AGENT_COPY_FILE, AGENT_SOURCE, type AgentCopy } from './undiciAgent.ts';

const outfile = new URL(AGENT_COPY_FILE, new URL('./', import.meta.url));
try {
  await build(copyBuildOptions(AGENT_SOURCE, outfile, new URL('../../', import.meta.url)));
  // An agent made and closed, as a run makes one, so what that compiles is in the cache.
  cacheCopy(outfile, (exports) => void new (exports as AgentCopy).Agent().close());
  console.log('build: undici\'s Agent copied');
} catch (err) {
  // The transport loads undici from node_modules then: slower to start, the same Agent.
  console.log(`build: undici's Agent is not copied beside the bundle (${String((err as Error).message ?? err).split('\n')[0]})`);
}
