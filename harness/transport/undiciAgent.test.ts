import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { Agent } from './undiciAgent.ts';

describe('undiciAgent', () => {
  it('is the Agent undici exports, with the request API its index adds', async () => {
    // Loaded after ours, the index hands back the same module (require's cache): not a second Agent.
    const undici = createRequire(import.meta.url)('undici') as { Agent: unknown };
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
