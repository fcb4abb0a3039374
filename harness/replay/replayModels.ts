import { resolve } from 'node:path';
import { UsageError } from '#harness/core/errors/index.ts';
import { modelOf, readFixture, readManifest } from './fixtureFormat.ts';

/**
 * The models `run --fixtures DIR` replays: those asked for (`--model`), each of which the recording
 * must hold, else the models it recorded. A model it never recorded is a usage error naming the
 * recorded ones: its requests could only be answered with another model's bytes.
 *
 * A recording from before the manifest listed its models is read for what its exchanges ask:
 * a model no request body names was never recorded; without --model, the spec's defaults that
 * some request names are replayed (a superset at worst: a check on one model may name another).
 * A directory that is no readable recording is left to the replay target, which refuses it after
 * every flag has been checked (so a command line with several mistakes names the same one first).
 */
export function replayModels(dir: string, asked: readonly string[] | undefined, spec: { defaults: readonly string[]; all: readonly string[] }): string[] {
  const recording = readable(() => readManifest(resolve(dir)));
  // Not a recording: the replay target refuses it, once every flag has been checked.
  if (recording === undefined) return [...(asked ?? spec.defaults)];
  const recorded = recording.models;
  if (recorded !== undefined) {
    const missing = (asked ?? []).filter((m) => !recorded.includes(m));
    if (missing.length > 0) throw new UsageError(`run: --fixtures ${dir} recorded ${recorded.join(', ')} only; --model ${missing.join(', ')} ${missing.length > 1 ? 'were' : 'was'} never recorded. ${replayWith(recorded, missing)}`);
    return [...(asked ?? recorded)];
  }
  // An older recording: what its requests name is all there is to go by.
  const exchanges = readable(() => readFixture(resolve(dir)).exchanges);
  if (exchanges === undefined) return [...(asked ?? spec.defaults)];
  const named = namedModels(exchanges).filter((m) => spec.all.includes(m));
  const older = `run: --fixtures ${dir} does not list the models it recorded (an older recording)`;
  const missing = (asked ?? []).filter((m) => !named.includes(m));
  if (missing.length > 0) throw new UsageError(`${older}, and no request in it names ${missing.join(', ')}: never recorded. ${replayWith(named, missing)}`);
  const models = asked ?? spec.defaults.filter((m) => named.includes(m));
  if (models.length === 0) throw new UsageError(`${older}, and no request in it names a default model of the spec (${spec.defaults.join(', ')}). ${named.length > 0 ? `Replay with ${asModelFlags(named)}, or record it again.` : 'Record it again.'}`);
  return [...models];
}

/** The ids of the checks a recording holds, on any model; empty for an older recording, or no recording. */
export function recordedCheckIds(dir: string): string[] {
  return [...new Set(Object.values(readable(() => readManifest(resolve(dir)))?.checks ?? {}).flat())];
}

function replayWith(recorded: readonly string[], missing: readonly string[]): string {
  return recorded.length > 0 ? `Replay with ${asModelFlags(recorded)}, or record ${missing.join(', ')}.` : `Record ${missing.join(', ')}.`;
}

const asModelFlags = (models: readonly string[]) => models.map((m) => `--model ${m}`).join(' or ');

/** The `model` every recorded request body names, in recording order, once each. */
function namedModels(exchanges: readonly { request: { body?: unknown } }[]): string[] {
  const named = new Set<string>();
  for (const { request } of exchanges) {
    const model = modelOf(request.body);
    if (model !== undefined) named.add(model);
  }
  return [...named];
}

/** What reading the recording gives, or undefined when it cannot be read (fixturesTarget says why). */
function readable<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}
