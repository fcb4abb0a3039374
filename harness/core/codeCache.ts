import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire, Module } from 'node:module';
import { dirname } from 'node:path';
import vm from 'node:vm';

/**
 * A one-file CommonJS module (a bundle the build wrote) loaded with the V8 code cache the build wrote
 * beside it (`<file>.v8cache`): Node 20 has no compile cache of its own, and compiling the anthropic
 * client's 1 MB was half of loading it. V8 checks the cache against the source, its version and its
 * flags, and compiles as usual when it does not fit (`rejected`): a stale cache costs its check, never
 * a wrong module. Only for self-contained files: `require` in them reaches node_modules and
 * Node's own modules, as `createRequire(file)` does.
 */
export interface Loaded {
  exports: unknown;
  /** Whether V8 took the cache: `none` when there is no cache file. */
  cache: 'used' | 'rejected' | 'none';
  /** Writes the cache of what has been compiled so far (the build calls it once the module has been exercised). */
  writeCache(): void;
}

const cacheFileOf = (file: string): string => `${file}.v8cache`;

export function loadWithCodeCache(file: string): Loaded {
  const cacheFile = cacheFileOf(file);
  const cachedData = existsSync(cacheFile) ? readFileSync(cacheFile) : undefined;
  const script = new vm.Script(Module.wrap(readFileSync(file, 'utf8')), {
    filename: file,
    ...(cachedData ? { cachedData } : {}),
    // import() inside the module goes to Node's own loader, as from a file it required.
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const module = { exports: {} as unknown, filename: file, id: file, loaded: false };
  const run = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: unknown, filename: string, dirname: string) => void;
  run.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  module.loaded = true;
  return {
    exports: module.exports,
    cache: cachedData === undefined ? 'none' : script.cachedDataRejected ? 'rejected' : 'used',
    writeCache: () => writeFileSync(cacheFile, script.createCachedData()),
  };
}
