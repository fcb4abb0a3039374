import { join } from 'node:path';
import { bench, describe } from 'vitest';
import { main } from '#harness/cli/main.ts';
import { captureIO } from '#harness/testing/captureIO.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';

/** The default full run (every default model, the embedded emulator), in-process, end to end. */
describe('svc-conformance run', () => {
  bench(
    'default full run against the embedded emulator',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'svc-bench-run-'));
      try {
        const code = await main(['run', '--quiet', '--report-dir', dir], captureIO());
        if (code !== 0) throw new Error(`run exited ${code}`);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    { iterations: 2, warmupIterations: 0, time: 0 },
  );
});
