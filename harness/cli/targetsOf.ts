import { resolve } from 'node:path';
import { UsageError } from '#harness/core/errors/index.ts';
import { secretValues, type ExtraHeader } from '#harness/core/extraHeaders.ts';
import type { FaultId } from '#harness/emulator/index.ts';
import type { RunTarget } from '#harness/runner/runTargets.ts';
import { featuresOf } from '#harness/spec/features.ts';
import type { Spec } from '#harness/spec/model.ts';
import type { TargetEntry } from './configFile.ts';
import { emulatorTarget, fixturesTarget, liveTarget, type Target } from '#harness/targets/target.ts';
import { withUpstream, type UpstreamFlags } from '#harness/targets/upstreamTarget.ts';
import { parseWithout } from './runOptions.ts';

/** The flags of `run` and `record` that say where requests go, each already checked. */
export interface TargetFlags {
  command: 'run' | 'record';
  /** A config file's targets, read once by configFlags; `file` names it in messages. */
  config?: { file: string; targets: readonly TargetEntry[] };
  baseUrls?: string[];
  fixtures?: string;
  fast: boolean;
  apiKeyEnv: string;
  emptyBalanceKeyEnv?: string;
  messagesBaseUrl?: string;
  now?: Date;
  faults: FaultId[];
  /** --load N: the embedded emulator takes N requests in flight per key (targets/target.ts emulatorTarget). */
  load?: number;
  /** What every target gets; a targets file adds its own per target. */
  modelMap: Record<string, string>;
  headers: ExtraHeader[];
  without: string[];
  /** --upstream-port and its companions: the one --base-url is a gateway in front of the harness. */
  upstream?: UpstreamFlags;
}

type Source = 'config' | 'base-url' | 'fixtures' | 'emulator';

type Entry = Omit<RunTarget, 'target'> & { make(): Promise<Target> };

const shared = (f: TargetFlags) => ({ modelMap: f.modelMap, headers: f.headers, without: f.without });

/** The targets each source gives, not yet started. */
const SOURCES: Record<Source, (f: TargetFlags, spec: Spec) => Entry[]> = {
  config: (f, spec) =>
    f.config!.targets.map((t, i) => ({
      // With --upstream-port the file's one target is the gateway (checked in targetsOf).
      make: async () => gateway(f, spec, liveTarget(t.baseUrl, t), t.headers),
      modelMap: { ...checkModelMap(`${f.command}: ${f.config!.file}: targets[${i}].model_map`, t.modelMap, spec), ...f.modelMap },
      headers: [...t.headers, ...f.headers],
      without: [...new Set([...parseWithout(`${f.command}: ${f.config!.file}`, t.without.join(','), featuresOf(spec)), ...f.without])],
    })),
  'base-url': (f, spec) =>
    f.baseUrls!.map((url) => ({
      make: async () => {
        const target = liveTarget(url, { apiKeyEnv: f.apiKeyEnv, ...(f.emptyBalanceKeyEnv ? { emptyBalanceKeyEnv: f.emptyBalanceKeyEnv } : {}), ...(f.messagesBaseUrl ? { messagesBaseUrl: f.messagesBaseUrl } : {}) });
        return gateway(f, spec, target, []);
      },
      ...shared(f),
    })),
  fixtures: (f) => [{ make: () => fixturesTarget(resolve(f.fixtures!), { fast: f.fast }), ...shared(f) }],
  emulator: (f, spec) => [{ make: () => emulatorTarget(spec, { ...(f.now ? { now: f.now } : {}), faults: f.faults, ...(f.load ? { load: f.load } : {}) }), ...shared(f) }],
};

/**
 * The target as given, or with --upstream-port the gateway in front of the harness's upstream. The
 * gateway may pass a --header-env value (or a target's header_env) on: the upstream's recording
 * redacts it too.
 */
function gateway(f: TargetFlags, spec: Spec, target: Target, own: readonly ExtraHeader[]): Promise<Target> | Target {
  return f.upstream === undefined ? target : withUpstream(target, spec, { ...f.upstream, secrets: secretValues([...own, ...f.headers]) });
}

/** A model map whose every key is a model of the spec: a map of a model the spec lacks would map nothing, silently. */
function checkModelMap(where: string, map: Record<string, string>, spec: Spec): Record<string, string> {
  const unknown = Object.keys(map).filter((id) => spec.models[id] === undefined);
  if (unknown.length > 0) throw new UsageError(`${where} maps ${unknown.join(', ')}, which ${unknown.length === 1 ? 'is not a model' : 'are not models'} of the spec (${Object.keys(spec.models).join(', ')}): the left side of SPEC_ID=THEIR_ID is the spec's id.`);
  return map;
}

/** The source the flags name: a targets file, base URLs, a recording, else the embedded emulator. */
function sourceOf(f: TargetFlags): Source {
  if (f.config !== undefined) return 'config';
  if (f.baseUrls) return 'base-url';
  return f.fixtures !== undefined ? 'fixtures' : 'emulator';
}

/** The run's targets, every one started (and checked: URL, key variable) before anything is spent on the first. */
export async function targetsOf(f: TargetFlags, spec: Spec): Promise<RunTarget[]> {
  if (f.config !== undefined && f.baseUrls) throw new UsageError('run: give targets either with --base-url or in --config, not both.');
  const source = sourceOf(f);
  checkModelMap(`${f.command}: --model-map`, f.modelMap, spec);
  const entries = SOURCES[source](f, spec);
  if (f.faults.length > 0 && source === 'config') throw new UsageError('run: --fault applies to the embedded emulator only.');
  if (f.upstream !== undefined && !(source === 'base-url' ? f.baseUrls!.length === 1 : source === 'config' && f.config!.targets.length === 1)) {
    const given = source === 'config' ? `${f.config!.file} names ${f.config!.targets.length} targets` : source === 'base-url' ? `${f.baseUrls!.length} were given` : source === 'fixtures' ? 'a recording of a gateway run replays its upstream side by itself' : 'none was given';
    throw new UsageError(`${f.command}: --upstream-port judges one gateway: give exactly one --base-url (the gateway's), or a --config with one target (${given}).`);
  }
  const targets: RunTarget[] = [];
  for (const { make, ...rest } of entries) targets.push({ target: await make(), ...rest });
  return targets;
}
