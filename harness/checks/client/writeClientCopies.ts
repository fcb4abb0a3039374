// Run by the build (scripts/build.mjs) from the bundle it just made: each default client as one file
// beside the bundle, with its version (clientCopyFile) and its V8 code cache (core/codeCache.ts), which requiredClient loads when that is the
// installed version, in a third of the time the package's ~250 files take. The package in
// node_modules stays the truth: not installed, no client; another version, that one. A client that
// is missing or will not bundle is simply not copied.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { loadWithCodeCache } from '#harness/core/codeCache.ts';
import { clientCopyFile, REPLAYED_CLIENT, type ClientCopy } from './clientCheck.ts';
import { CLIENTS, DEFAULT_CLIENTS } from './index.ts';

const beside = new URL('./', import.meta.url);
const copied: string[] = [];
for (const { name, package: pkg } of CLIENTS.filter((c) => DEFAULT_CLIENTS.includes(c.name))) {
  try {
    await build({
      stdin: { contents: `module.exports = { client: require(${JSON.stringify(pkg)}), VERSION: require(${JSON.stringify(`${pkg}/version`)}).VERSION };`, resolveDir: fileURLToPath(new URL('../../', import.meta.url)), loader: 'js' },
      outfile: fileURLToPath(new URL(clientCopyFile(pkg), beside)),
      bundle: true,
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      // Names kept: a client's errors are judged by their class name.
      keepNames: true,
      minifyWhitespace: true,
      logLevel: 'silent',
    });
    // Its code cache, written once the client was made (as a check makes one), so what that compiles is in it.
    const file = fileURLToPath(new URL(clientCopyFile(pkg), beside));
    const loaded = loadWithCodeCache(file);
    const { client } = loaded.exports as ClientCopy<{ default: new (options: object) => unknown }>;
    new client.default({ ...REPLAYED_CLIENT, fetch: async () => new Response('{}') });
    loaded.writeCache();
    copied.push(name);
  } catch (err) {
    console.log(`build: the ${name} client is not copied beside the bundle (${String((err as Error).message ?? err).split('\n')[0]}): its checks load it from node_modules`);
  }
}
console.log(`build: ${copied.length} clients copied (${copied.join(', ')})`);
