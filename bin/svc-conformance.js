#!/usr/bin/env node
// Entry point for `npx svc-conformance`. The harness is TypeScript run through tsx, so a clone
// works after `npm ci` with no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../harness/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
