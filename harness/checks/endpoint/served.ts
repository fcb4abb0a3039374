import { HarnessError } from '#harness/core/errors/index.ts';
import type { Spec } from '#harness/spec/model.ts';
import { defaultModelOnly, defineCheck, type Check } from '../define.ts';
import { outcomeOf, skip } from '../support/outcome.ts';

const kebab = (s: string) => s.replace(/_/g, '-');

/** The id of the check that says whether an endpoint is served on a base: what blocked checks name. */
export const servedCheckId = (endpoint: string, base: string) => `endpoint.${kebab(endpoint)}-on-${kebab(base)}.served`;

/**
 * One check per endpoint of the spec and base it is served under: a valid request is not refused as
 * a path that does not exist is. A route that is not served is one must failure here; every check
 * that sends there is skipped, blocked by this one, never failed again and never passed.
 */
export function servedChecks(spec: Spec): Check[] {
  return Object.entries(spec.endpoints).flatMap(([endpoint, ep]) =>
    ep.bases.map((base) =>
      defineCheck({
        id: servedCheckId(endpoint, base),
        title: `${ep.method} ${spec.bases[base]?.placeholder ?? base}${typeof ep.path === 'string' ? ep.path : ' (messages path)'} is served`,
        severity: 'must',
        basis: 'stated',
        specRefs: [`endpoints.${endpoint}`, `bases.${base}`],
        appliesTo: defaultModelOnly,
        // Not a chain of its own, but the first link of every chain on its route: its probe goes first.
        chain: 2,
        judges: 'status',
        async run(ctx) {
          const v = await ctx.served(endpoint, base);
          if ('outOfScope' in v) return skip(v.outOfScope, 'out-of-scope');
          if ('unknown' in v) return skip(v.unknown, 'inconclusive');
          // Not judged, and said at the severity it would have been judged at: the run cannot pass on it.
          if ('unavailable' in v) throw new HarnessError('HARNESS_UNAVAILABLE', v.unavailable);
          if (v.served) return outcomeOf([]);
          const [evidence, comparison] = v.evidence;
          return outcomeOf([{ message: v.why, ...(evidence ? { evidence } : {}), ...(comparison ? { comparison } : {}) }]);
        },
      }),
    ),
  );
}
