#!/usr/bin/env node
// `npm run build` (and `prepare`, so `npm ci` and `npm pack` both run it): bundles the CLI into
// dist/cli/ with esbuild, so an installed package runs JavaScript with no tsx and no transpiling at
// start-up. Plain Node, not TypeScript: it must run before anything can transpile.
import { execFileSync } from 'node:child_process';
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { DIST_ENTRY, DIST_STAMP, digestOf } from '../bin/dist.js';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const outdir = join(root, dirname(DIST_ENTRY));

// The stamp goes first and comes back last: a CLI started mid-build runs the sources.
rmSync(join(root, DIST_STAMP), { force: true });
const result = await build({
  absWorkingDir: root,
  // writeSpecCache runs once, below: the shipped spec loaded by the bundled loader (spec/specCache.ts).
  entryPoints: ['harness/cli/main.ts', 'harness/spec/writeSpecCache.ts', 'harness/derive/validators/writeValidators.ts', 'harness/derive/arbitraries/writeFeasibility.ts', 'harness/checks/writeCheckFacts.ts', 'harness/checks/client/writeClientCopies.ts', 'harness/transport/writeAgentCopy.ts'],
  outdir,
  // Every file directly in dist/cli/, two levels below the root as harness/<layer>/ is: modules
  // that find spec/, reports/*.schema.json, fixtures/fixture.schema.json or package.json at
  // `../../` from import.meta.url find them from the bundle too.
  entryNames: '[name]',
  chunkNames: '[name]-[hash]',
  bundle: true,
  // Each command's module is a dynamic import (commands/index.ts): its own chunk, loaded when it runs.
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Dependencies stay in node_modules; only our own modules (#harness/* included) are bundled. (The
  // steps below copy three a run loads most of, each used only while it is of the installed version:
  // harness/core/bundledCopy.ts.)
  packages: 'external',
  sourcemap: 'linked',
  sourcesContent: false,
  metafile: true,
  logLevel: 'warning',
});

const outputs = new Set(Object.keys(result.metafile.outputs).map((f) => join(root, f)));
for (const name of readdirSync(outdir)) {
  const file = join(outdir, name);
  // Chunks of an earlier build (their hashes differ) would only take space in the package.
  if (!outputs.has(file)) rmSync(file, { force: true });
  else if (dirname(file) !== outdir) throw new Error(`build: ${relative(root, file)} is not directly in ${relative(root, outdir)}/`);
}
// The shipped spec, loaded once now by the loader just bundled: the CLI skips YAML and the
// meta-schema when spec/ still hashes the same (harness/spec/specCache.ts).
execFileSync(process.execPath, [join(outdir, 'writeSpecCache.js')], { stdio: 'inherit' });
// And its validators, as standalone code (harness/derive/validators/writeValidators.ts).
execFileSync(process.execPath, [join(outdir, 'writeValidators.js')], { stdio: 'inherit' });
// And which breaks each model's invalid requests can be drawn with (harness/derive/arbitraries/breakFeasibility.ts).
execFileSync(process.execPath, [join(outdir, 'writeFeasibility.js')], { stdio: 'inherit' });
// And what the checks are made from: the tools' parameters as validators, the objects' schema facts (harness/checks/writeCheckFacts.ts).
execFileSync(process.execPath, [join(outdir, 'writeCheckFacts.js')], { stdio: 'inherit' });
// And the default clients, one file each (harness/checks/client/writeClientCopies.ts).
execFileSync(process.execPath, [join(outdir, 'writeClientCopies.js')], { stdio: 'inherit' });
// And undici's Agent, one file (harness/transport/writeAgentCopy.ts).
execFileSync(process.execPath, [join(outdir, 'writeAgentCopy.js')], { stdio: 'inherit' });
// Our own sources only: what the bundle holds, and what bin/ compares before running it.
const inputs = Object.keys(result.metafile.inputs).filter((f) => f.startsWith('harness/')).sort();
writeFileSync(join(root, DIST_STAMP), `${JSON.stringify({ digest: digestOf(root, inputs), inputs }, null, 2)}\n`);
const bytes = Object.values(result.metafile.outputs).reduce((n, o) => n + o.bytes, 0);
console.log(`build: ${inputs.length} modules -> ${outputs.size} files in ${relative(root, outdir)}/ (${(bytes / 1024).toFixed(0)} KiB)`);
