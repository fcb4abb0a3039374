import { systemClock } from '#harness/core/clock.ts';
import type { Spec } from '#harness/spec/model.ts';
import { inFlightAbove, type FaultId } from './faults/catalogue.ts';
import { faultedSpec } from './faults/faultedSpec.ts';
import type { EmulatorOptions, KeyBalance } from './options.ts';
import { Balances, Capacity, ConcurrencyLimiter, PromptCache, RequestsInFlight } from './state/index.ts';

/** Everything a route needs: the spec, the clock, the faults, and the per-key state. */
export interface EmulatorContext {
  spec: Spec;
  /** The spec as validation reads it: the spec itself, or a copy a status fault has broken. */
  validationSpec: Spec;
  options: EmulatorOptions;
  now(): Date;
  seed: number;
  fault(id: FaultId): boolean;
  /** Whether fault `id` is on and acts now: more requests in flight than its `inFlightAbove`. */
  underLoad(id: FaultId): boolean;
  balances: Balances;
  cache: PromptCache;
  limiter: ConcurrencyLimiter;
  /** The service's capacity across keys (`capacity`), when set. */
  capacity: Capacity | undefined;
  /** Requests received and not yet answered, every key and route: what "under load" counts. */
  inFlight: RequestsInFlight;
  /** The last answers per key: only the `stateful-history` fault reads it. */
  history: Map<string, string[]>;
  /** The body the crossing faults hand to the next request answered (routes/chat.ts `handedOver`). */
  crossing: { held?: Record<string, unknown> };
  /** The configured pause between two stream events. */
  streamIntervalMs: number;
  /**
   * The pause before a stream's next event, read at each event: `streamIntervalMs`, or with a
   * capacity max(streamIntervalMs, 1) x (1 + slots in use / capacity), so each stream's tokens per
   * second fall as the load rises (half the pace at full capacity).
   */
  streamPause(): number;
}

export const DEFAULT_CONCURRENCY = 8;

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

/** The capacity the options ask for, or none; a queue bound without a capacity is a mistake. */
function capacityOf(options: EmulatorOptions): Capacity | undefined {
  if (options.capacity === undefined) {
    if (options.queueBound !== undefined) throw new Error('emulator options: queueBound needs capacity');
    return undefined;
  }
  return new Capacity(options.capacity, options.queueBound ?? options.capacity);
}

export function createContext(options: EmulatorOptions): EmulatorContext {
  const faults = new Set<string>(options.faults ?? []);
  const capacity = capacityOf(options);
  const inFlight = new RequestsInFlight();
  const interval = options.streamIntervalMs ?? 0;
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
    underLoad: (id) => faults.has(id) && inFlight.count > (inFlightAbove(id) ?? -1),
    balances: new Balances(billingSpec, options.balance ?? defaultBalance(spec), options.balances ?? {}),
    cache: new PromptCache(spec, () => now().getTime()),
    limiter: new ConcurrencyLimiter(options.concurrencyPerKey ?? DEFAULT_CONCURRENCY),
    capacity,
    inFlight,
    history: new Map(),
    crossing: {},
    streamIntervalMs: interval,
    streamPause: capacity ? () => Math.round(Math.max(interval, 1) * (1 + capacity.inFlight / capacity.size)) : () => interval,
  };
}
