import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { loadWithCodeCache } from '#harness/core/codeCache.ts';
import { staleDist } from '#harness/testing/freshDist.ts';
import { Agent, AGENT_COPY_FILE, type AgentCopy } from './undiciAgent.ts';

const requireHere = createRequire(import.meta.url);

describe('undiciAgent', () => {
  test('is the Agent undici exports, with the request API its index adds', async () => {
    // Loaded after ours, the index hands back the same module (require's cache): not a second Agent.
    const undici = requireHere('undici') as { Agent: unknown };
    expect(Agent).toBe(undici.Agent);
    const agent = new Agent();
    try {
      expect(typeof agent.request).toBe('function');
      expect(typeof agent.compose).toBe('function');
    } finally {
      await agent.close();
    }
  });
});

const stale = staleDist();

describe.skipIf(stale !== undefined)(`the bundle's copy of undici's Agent${stale ? ` (skipped: ${stale})` : ''}`, () => {
  test('is of the undici installed, loads from its code cache, and has the request API', async () => {
    const loaded = loadWithCodeCache(fileURLToPath(new URL(AGENT_COPY_FILE, new URL('../../dist/cli/', import.meta.url))));
    expect(loaded.cache).toBe('used');
    const copy = loaded.exports as AgentCopy;
    expect(copy.VERSION).toBe((requireHere('undici/package.json') as { version: string }).version);
    const agent = new copy.Agent();
    try {
      expect(typeof agent.request).toBe('function');
      expect(typeof agent.compose).toBe('function');
    } finally {
      await agent.close();
    }
  });
});
