#!/usr/bin/env node
// Entry point for `npx svc-conformance`. Runs the bundle in dist/ (`npm run build`, which `prepare`
// runs on `npm ci` and `npm pack`) when it was built from the sources present; otherwise the
// TypeScript sources through tsx, so an edited clone never runs a stale bundle.
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freshDist } from './dist.js';

// An error nothing caught (a callback's, a stray rejection) is a bug of ours: one line and exit 2,
// as main() says of the errors it catches, not Node's stack and exit 1 (which means "conformance
// failure" here). SVC_CONFORMANCE_DEBUG=1 keeps the stack.
const internalError = (err) => {
  const debug = process.env.SVC_CONFORMANCE_DEBUG === '1';
  const message = err instanceof Error ? err.message : String(err);
  try {
    if (debug) process.stderr.write(`${err instanceof Error && err.stack ? err.stack : message}\n`);
    process.stderr.write(`svc-conformance: internal error: ${message}. Please report it with the command line${debug ? ' and the stack above' : ' (run again with SVC_CONFORMANCE_DEBUG=1 for the stack)'}.\n`);
  } finally {
    process.exit(2);
  }
};
process.on('uncaughtException', internalError);
process.on('unhandledRejection', internalError);

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const bundle = freshDist(root);
let main;
if (bundle !== undefined) {
  ({ main } = await import(bundle));
} else {
  let register;
  try {
    ({ register } = await import('tsx/esm/api'));
  } catch {
    process.stderr.write('svc-conformance: dist/ is missing or older than the sources, and tsx (a dev dependency) is not installed: run `npm run build`.\n');
    process.exit(2);
  }
  register();
  ({ main } = await import('../harness/cli/main.ts'));
}
process.exitCode = await main(process.argv.slice(2));
