import type { UpstreamRef, UpstreamSide } from '#harness/core/upstream.ts';

/**
 * The upstream sides of the runs in this process, by id: a run's config is plain data (it may
 * cross into a worker), so it names its upstream, and the runner finds the live one here.
 */
const held = new Map<string, UpstreamSide>();
let next = 0;

/** Keeps `side` until it is closed; `ref` is what goes into the run's config (and a target). */
export function holdUpstream(side: UpstreamSide): { ref: UpstreamRef; close(): Promise<void> } {
  const id = `upstream-${++next}`;
  held.set(id, side);
  return {
    ref: { id, kind: side.kind, url: side.url, anyKey: side.anyKey },
    close: () => {
      held.delete(id);
      return side.close();
    },
  };
}

/** The upstream side a config names, while its run holds it. */
export function heldUpstream(id: string): UpstreamSide | undefined {
  return held.get(id);
}
