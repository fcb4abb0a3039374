import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root, where the benchmarks run the CLI. */
export const REPO = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/** `node ARGS` in a fresh process at the repository root, its output dropped: how long it took, and its exit code. */
export function timeProcess(args: string[], env: NodeJS.ProcessEnv): Promise<{ ms: number; code: number }> {
  const started = performance.now();
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, args, { cwd: REPO, env, stdio: 'ignore' });
    child.on('error', fail);
    child.on('exit', (code) => done({ ms: performance.now() - started, code: code ?? -1 }));
  });
}
