import type { UpstreamSide } from '#harness/core/upstream.ts';

/**
 * The upstream sides of the runs in this process, by id: a run's config is plain data (it may
 * cross into a worker), so it names its upstream, and the runner finds the live one here.
 */
const held = new Map<string, UpstreamSide>();
let next = 0;

/** Keeps `side` until it closes; its id goes into the run's config. */
export function holdUpstream(side: UpstreamSide): { id: string; side: UpstreamSide } {
  const id = `upstream-${++next}`;
  held.set(id, side);
  const close = side.close;
  return { id, side: { ...side, close: () => (held.delete(id), close()) } };
}

/** The upstream side a config names, while its run holds it. */
export function heldUpstream(id: string): UpstreamSide | undefined {
  return held.get(id);
}
