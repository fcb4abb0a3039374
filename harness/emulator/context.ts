import { systemClock } from '#harness/core/clock.ts';
import type { Spec } from '#harness/spec/model.ts';
import type { FaultId } from './faults/catalogue.ts';
import { faultedSpec } from './faults/faultedSpec.ts';
import type { EmulatorOptions, KeyBalance } from './options.ts';
import { Balances, ConcurrencyLimiter, PromptCache } from './state/index.ts';

/** Everything a route needs: the spec, the clock, the faults, and the per-key state. */
export interface EmulatorContext {
  spec: Spec;
  /** The spec as validation reads it: the spec itself, or a copy a status fault has broken. */
  validationSpec: Spec;
  options: EmulatorOptions;
  now(): Date;
  seed: number;
  fault(id: FaultId): boolean;
  balances: Balances;
  cache: PromptCache;
  limiter: ConcurrencyLimiter;
  /** The last answers per key: only the `stateful-history` fault reads it. */
  history: Map<string, string[]>;
  streamIntervalMs: number;
}

const DEFAULT_CONCURRENCY = 8;

/**
 * A new account as the description sketches it: its free credits (Limits: "about 5 USD") as the
 * granted balance, and one minimum top-up (2.00 USD) as the topped-up balance, so both buckets and
 * their spending order can be observed.
 */
export function defaultBalance(spec: Spec): KeyBalance {
  const free = spec.limits.free_credits as { approx_usd?: unknown } | undefined;
  const topUp = spec.limits.min_top_up_usd as { value?: unknown } | undefined;
  return {
    currency: spec.pricing.currency,
    granted: typeof free?.approx_usd === 'string' ? free.approx_usd : '0',
    toppedUp: typeof topUp?.value === 'string' ? topUp.value : '0',
  };
}

export function createContext(options: EmulatorOptions): EmulatorContext {
  const faults = new Set<string>(options.faults ?? []);
  const now = options.now ?? systemClock;
  const spec = options.spec;
  // The fault reverses the spending order the spec gives; the balance code itself stays honest.
  const billingSpec: Spec = faults.has('balance-topped-up-first')
    ? { ...spec, billing: { ...spec.billing, spending_order: [...spec.billing.spending_order].reverse() } }
    : spec;
  return {
    spec,
    validationSpec: faultedSpec(spec, faults as ReadonlySet<FaultId>),
    options,
    now,
    seed: options.seed ?? 0,
    fault: (id) => faults.has(id),
    balances: new Balances(billingSpec, options.balance ?? defaultBalance(spec), options.balances ?? {}),
    cache: new PromptCache(spec, () => now().getTime()),
    limiter: new ConcurrencyLimiter(options.concurrencyPerKey ?? DEFAULT_CONCURRENCY),
    history: new Map(),
    streamIntervalMs: options.streamIntervalMs ?? 0,
  };
}
