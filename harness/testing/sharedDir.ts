// Test support: the shared/ folder that CI puts beside the repo (<parent>/main, <parent>/shared),
// holding the service description and the real-world captures.
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'vitest';

/** <repo>/../shared */
export const SHARED_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../../shared');
export const SHARED_PRESENT = existsSync(SHARED_DIR);

/**
 * A describe block for tests that read shared/: skipped with the reason when a bare clone has no
 * shared/ beside it, but under CI=true (where CI always puts it there) its absence fails the run.
 */
export function describeWithShared(name: string, body: () => void): void {
  if (SHARED_PRESENT) {
    describe(name, body);
    return;
  }
  if (process.env.CI === 'true') {
    throw new Error(`${name}: ${SHARED_DIR} is missing; CI puts the shared/ folder beside the repo (<parent>/main, <parent>/shared).`);
  }
  // The body is not run at all: collecting it would read shared/.
  describe(name, () => {
    test.skip(`skipped: no shared/ folder beside the repo at ${SHARED_DIR}; CI puts it there`, () => undefined);
  });
}
