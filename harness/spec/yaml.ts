import { createRequire } from 'node:module';

type Yaml = typeof import('yaml');
let lib: Yaml | undefined;

/** The yaml library, loaded on first use: a run whose spec comes from the bundle's cache parses no YAML (10 ms of start-up). */
export function yaml(): Yaml {
  return (lib ??= createRequire(import.meta.url)('yaml') as Yaml);
}
