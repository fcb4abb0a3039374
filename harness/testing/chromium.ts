// Test support: a headless browser for the tests that look at a rendered page (the load chart of
// report.html and index.html), driven by playwright-core (no browser download of its own): Debian's
// chromium, or the one CHROMIUM_PATH names. A bare clone has none, and its tests are skipped, saying
// so; CI installs it (.ci/run), so under CI=true its absence fails the run.
import { existsSync } from 'node:fs';

export const CHROMIUM_ENV = 'CHROMIUM_PATH';
export const DEFAULT_CHROMIUM = '/usr/bin/chromium';

export type ChromiumStatus = { present: true; path: string } | { present: false; path: string; skip: string } | { present: false; path: string; fail: string };

/** Where chromium is and what a test that needs it does: run; skip with what to install; or, under CI=true, fail. */
export function chromiumStatus(env: NodeJS.ProcessEnv = process.env, exists: (path: string) => boolean = existsSync): ChromiumStatus {
  const path = env[CHROMIUM_ENV] || DEFAULT_CHROMIUM;
  if (exists(path)) return { present: true, path };
  const where = env[CHROMIUM_ENV] ? `${CHROMIUM_ENV}=${env[CHROMIUM_ENV]} names no file` : `no chromium at ${path}`;
  if (env.CI === 'true') return { present: false, path, fail: `${where}; CI installs it (.ci/run: apt-get install -y chromium), or set ${CHROMIUM_ENV}=path/to/chromium.` };
  return { present: false, path, skip: `skipped: ${where}; install it (apt-get install -y chromium) or give ${CHROMIUM_ENV}=path/to/chromium to run it` };
}
