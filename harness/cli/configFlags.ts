import { existsSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { isUsageError, UsageError } from '#harness/core/errors/index.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { CONFIG_FILE, readConfigFile, type CheckValue, type ConfigFile, type TargetEntry } from './configFile.ts';
import type { CommandIO } from './command.ts';
import { CONFIG_KEYS, type RunFlagValues } from './runOptions.ts';
import type { Spec } from '#harness/spec/model.ts';
import { featuresOf } from '#harness/spec/features.ts';

/** The names a config file is found by in the working directory, as vitest and eslint find theirs. */
export const CONFIG_NAMES = [CONFIG_FILE, 'svc-conformance.yml'] as const;

/** The flags of `run` and `record` this module reads. */
interface GivenFlags {
  config?: string | undefined;
  spec?: string | undefined;
  'base-url'?: readonly string[] | undefined;
  fixtures?: string | undefined;
  fault?: readonly string[] | undefined;
}

/** What the config file adds: flags to merge under the command line's, and the targets file for targetsOf. */
export interface FromConfig {
  values: RunFlagValues;
  /** The file whose targets the run uses; undefined when no file names targets, or flags override them. */
  config: string | undefined;
  /** Those targets, as read once here (none when `config` is undefined). */
  targets: TargetEntry[];
}

/** ./svc-conformance.yaml (or .yml) when the working directory holds one; both is ambiguous. */
export function findConfig(cwd: string): string | undefined {
  const found = CONFIG_NAMES.filter((n) => existsSync(join(cwd, n)));
  if (found.length > 1) throw new UsageError(`run: both ./${found.join(' and ./')} are in ${cwd}: keep one, or name it with --config FILE.`);
  return found[0] === undefined ? undefined : join(cwd, found[0]);
}

/**
 * The config file's part of a command line: `--config FILE`, else ./svc-conformance.yaml found in
 * the working directory (said on stderr, so no one believes an endpoint was tested when the
 * emulator was, or the other way round). Flags given on the command line win over the file: its
 * run options are merged under them, and --base-url, --fixtures or --fault replace its targets.
 * `record` takes no --config, and ignores a found file, saying so: what a recording holds is named
 * on its command line.
 */
export function configFlags(command: 'run' | 'record', flags: GivenFlags, io: CommandIO, cwd = process.cwd()): FromConfig {
  const found = flags.config === undefined ? findConfig(cwd) : undefined;
  if (command === 'record') {
    if (found) io.stderr(`svc-conformance: record ignores ./${basename(found)}: a recording's target and options are given on its command line.`);
    return { values: {}, config: flags.config, targets: [] };
  }
  const file = flags.config === undefined ? found : resolve(flags.config);
  if (file === undefined) return { values: {}, config: undefined, targets: [] };
  const read = readConfigFile(file, checkOf(command, flags.spec));
  const values = flagsOf(read);
  const overriddenBy = flags['base-url'] ? '--base-url' : flags.fixtures !== undefined ? '--fixtures' : flags.fault ? '--fault' : undefined;
  const hasTargets = read.targets.length > 0;
  if (found) {
    const targets = hasTargets ? `targets: ${read.targets.length}${overriddenBy ? `, not used: ${overriddenBy} given` : ''}` : 'no targets';
    const options = Object.keys(read.options);
    io.stderr(`svc-conformance: using ./${basename(found)} (${targets}${options.length > 0 ? `; options: ${options.join(', ')}` : ''})`);
  }
  // An explicit --config keeps its targets, so a clash with --base-url or --fixtures is still refused.
  const config = !hasTargets ? undefined : flags.config !== undefined ? flags.config : overriddenBy ? undefined : file;
  return { values, config, targets: config === undefined ? [] : read.targets };
}

/** An option's value in the file as its flag takes it: a list joined with commas for a flag taking one, a number as its text. */
function flagValueOf(key: string, value: string | number | boolean | string[]): string | boolean | string[] {
  const option = CONFIG_KEYS.get(key)!;
  return Array.isArray(value) ? (option.multiple ? value : value.join(',')) : typeof value === 'number' ? String(value) : value;
}

/**
 * Each value read as its flag would be (its row's parser), in the flag's own words after the file's position ("must
 * be a positive integer from 1 to 256 ..."): what readConfigFile notes beside the file's other problems.
 */
function checkOf(command: string, specDir: string | undefined): CheckValue {
  let loaded: Spec | undefined;
  const spec = () => (loaded ??= loadSpec(specDir).spec);
  return (key, value) => {
    try {
      const option = CONFIG_KEYS.get(key)!;
      option.value.read(flagValueOf(key, value), { command, flag: option.flag, spec, features: () => featuresOf(spec()) });
      return undefined;
    } catch (err) {
      if (!isUsageError(err)) throw err;
      return err.message.replace(/^\w+: --[\w-]+ /, '').replace(/, e\.g\. --[\w-]+ \S+$/, '.');
    }
  };
}

/** The file's run options (each checked as it was read) as flag values. */
function flagsOf(read: ConfigFile): RunFlagValues {
  return Object.fromEntries(Object.entries(read.options).map(([key, value]) => [CONFIG_KEYS.get(key)!.flag, flagValueOf(key, value)])) as RunFlagValues;
}
