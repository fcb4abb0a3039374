import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Every file under DIR with its bytes (base64), by path relative to DIR: what "left as it was, byte for byte" compares. */
export function dirSnapshot(dir: string): Record<string, string> {
  const walk = (at: string): [string, string][] =>
    readdirSync(at).flatMap((n) => (statSync(join(at, n)).isDirectory() ? walk(join(at, n)) : [[relative(dir, join(at, n)), readFileSync(join(at, n), 'base64')] as [string, string]]));
  return Object.fromEntries(walk(dir).sort(([a], [b]) => a.localeCompare(b)));
}
