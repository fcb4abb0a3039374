// Test support: the CLI (main) run in a worker thread of the test's own process, for a file whose
// runs would otherwise all take turns on one core (faultWalk.test.ts). The thread loads the sources
// through tsx, as bin/ does when dist/ is not fresh; what a run prints is kept in the thread, as
// captureIO keeps it in-process.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

export interface CliThread {
  /** `main(args)` in the thread: its exit code. */
  run(args: readonly string[]): Promise<number>;
  close(): Promise<void>;
}

const require = createRequire(import.meta.url);

/** tsx's ESM API (`tsx/esm/api`, its `import` condition), by URL: the thread's code is CommonJS. */
function tsxEsmApi(): string {
  const manifest = require.resolve('tsx/package.json');
  const { exports } = require(manifest) as { exports: Record<string, { import: { default: string } }> };
  return pathToFileURL(join(dirname(manifest), exports['./esm/api']!.import.default)).href;
}

/** The thread's code (CommonJS, evaluated): register tsx, load the CLI, answer each job with its exit code. */
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  (await import(workerData.tsx)).register();
  const { main } = await import(workerData.main);
  const { captureIO } = await import(workerData.captureIO);
  parentPort.on('message', ({ id, args }) => {
    main(args, captureIO()).then(
      (code) => parentPort.postMessage({ id, code }),
      (err) => parentPort.postMessage({ id, error: String((err && err.stack) || err) }),
    );
  });
  parentPort.postMessage({ ready: true });
})().catch((err) => parentPort.postMessage({ failed: String((err && err.stack) || err) }));
`;

/** Starts the thread and waits until the CLI is loaded in it. */
export async function startCliThread(): Promise<CliThread> {
  const worker = new Worker(THREAD, {
    eval: true,
    workerData: { tsx: tsxEsmApi(), main: new URL('../cli/main.ts', import.meta.url).href, captureIO: new URL('./captureIO.ts', import.meta.url).href },
  });
  const pending = new Map<number, { done: (code: number) => void; fail: (err: Error) => void }>();
  let next = 0;
  const ready = new Promise<void>((done, fail) => {
    worker.on('message', (m: { ready?: true; failed?: string; id?: number; code?: number; error?: string }) => {
      if (m.ready) return done();
      if (m.failed !== undefined) return fail(new Error(`the CLI thread did not start: ${m.failed}`));
      const job = pending.get(m.id!);
      pending.delete(m.id!);
      if (m.error !== undefined) job?.fail(new Error(`main() threw in the CLI thread: ${m.error}`));
      else job?.done(m.code!);
    });
    worker.on('error', (err) => {
      fail(err);
      for (const job of pending.values()) job.fail(err);
      pending.clear();
    });
  });
  await ready;
  return {
    run: (args) =>
      new Promise<number>((done, fail) => {
        const id = next++;
        pending.set(id, { done, fail });
        worker.postMessage({ id, args: [...args] });
      }),
    close: async () => {
      await worker.terminate();
    },
  };
}
