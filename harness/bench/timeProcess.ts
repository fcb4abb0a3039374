import { execFileSync, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freshDist } from '../../bin/dist.js';

/** The repository root, where the benchmarks run the CLI. */
export const REPO = resolve(fileURLToPath(new URL('../..', import.meta.url)));

let built = false;

/**
 * The CLI a user runs is the bundle; with sources newer than it, bin/ runs them through tsx, which
 * costs a second of start-up a user never pays. So the bundle is built first when stale, once.
 */
function buildOnce(): void {
  if (built) return;
  built = true;
  if (freshDist(REPO) !== undefined) return;
  console.error('bench: dist/ is older than the sources: building it (npm run build) so the CLI timed is the one users run');
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: REPO, stdio: ['ignore', 'ignore', 'inherit'] });
}

/** `node ARGS` in a fresh process at the repository root, its output dropped: how long it took, and its exit code. */
export function timeProcess(args: string[], env: NodeJS.ProcessEnv): Promise<{ ms: number; code: number }> {
  buildOnce();
  const started = performance.now();
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, args, { cwd: REPO, env, stdio: 'ignore' });
    child.on('error', fail);
    child.on('exit', (code) => done({ ms: performance.now() - started, code: code ?? -1 }));
  });
}
