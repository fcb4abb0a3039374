#!/usr/bin/env node
// Entry point for `npx svc-conformance`. Runs the bundle in dist/ (`npm run build`, which `prepare`
// runs on `npm ci` and `npm pack`) when it was built from the sources present; otherwise the
// TypeScript sources through tsx, so an edited clone never runs a stale bundle.
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freshDist } from './dist.js';

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
