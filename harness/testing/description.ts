// Test support: the service description, which lives outside the repo (CI puts shared/ beside it:
// <parent>/main, <parent>/shared/service-description.md). A bare clone has none; SVC_DESCRIPTION
// points at a copy anywhere.
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'vitest';

export const DESCRIPTION_ENV = 'SVC_DESCRIPTION';
/** <repo>/../shared/service-description.md */
export const DEFAULT_DESCRIPTION = resolve(dirname(fileURLToPath(import.meta.url)), '../../../shared/service-description.md');

export type DescriptionStatus = { present: true; path: string } | { present: false; path: string; skip: string } | { present: false; path: string; fail: string };

/**
 * Where the description is and what a test that reads it does: run; skip with a reason that says
 * what to provide; or, under CI=true (where CI always provides it), fail.
 */
export function descriptionStatus(env: NodeJS.ProcessEnv = process.env, exists: (path: string) => boolean = existsSync): DescriptionStatus {
  const path = env[DESCRIPTION_ENV] ? resolve(env[DESCRIPTION_ENV]) : DEFAULT_DESCRIPTION;
  if (exists(path)) return { present: true, path };
  const where = env[DESCRIPTION_ENV] ? `${DESCRIPTION_ENV}=${env[DESCRIPTION_ENV]} names no file` : `no service description at ${path}`;
  if (env.CI === 'true') return { present: false, path, fail: `${where}; CI puts the shared/ folder beside the repo (<parent>/main, <parent>/shared), or set ${DESCRIPTION_ENV}=path/to/service-description.md.` };
  return { present: false, path, skip: `skipped: ${where}; give ${DESCRIPTION_ENV}=path/to/service-description.md (or put shared/ beside the repo) to run it` };
}

/** A describe block for tests that read the description: `body` gets its path; see descriptionStatus. */
export function describeWithDescription(name: string, body: (path: string) => void): void {
  const status = descriptionStatus();
  if (status.present) {
    describe(name, () => body(status.path));
    return;
  }
  if ('fail' in status) throw new Error(`${name}: ${status.fail}`);
  // The body is not run at all: collecting it would read the description.
  describe(name, () => {
    test.skip(status.skip, () => undefined);
  });
}
