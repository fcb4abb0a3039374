// Run by the build (scripts/build.mjs) from the bundle it just made: each default client as one file
// beside the bundle (core/bundledCopy.ts), which requiredClient loads when it is of the installed
// version, in a fifth of the time the package's ~250 files take. A client that is missing or will
// not bundle is simply not copied.
import { build } from 'esbuild';
import { writeCopy } from '#harness/core/bundledCopy.ts';
import { clientCopyFile, REPLAYED_CLIENT, type ClientCopy } from './clientCheck.ts';
import { CLIENTS, DEFAULT_CLIENTS } from './index.ts';

const beside = new URL('./', import.meta.url);
const copied: string[] = [];
for (const { name, package: pkg } of CLIENTS.filter((c) => DEFAULT_CLIENTS.includes(c.name))) {
  const source = `module.exports = { client: require(${JSON.stringify(pkg)}), VERSION: require(${JSON.stringify(`${pkg}/version`)}).VERSION };`;
  // Made as a check makes one, so what that compiles is in the cache.
  const make = (exports: unknown) => new (exports as ClientCopy<{ default: new (options: object) => unknown }>).client.default({ ...REPLAYED_CLIENT, fetch: async () => new Response('{}') });
  const failed = await writeCopy(build, source, new URL(clientCopyFile(pkg), beside), new URL('../../', import.meta.url), make);
  if (failed === undefined) copied.push(name);
  else console.log(`build: the ${name} client is not copied beside the bundle (${failed}): its checks load it from node_modules`);
}
console.log(`build: ${copied.length} clients copied (${copied.join(', ')})`);
