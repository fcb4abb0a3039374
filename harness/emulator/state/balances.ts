import type { Spec } from '#harness/spec/model.ts';
import { formatUsd, parseUsd } from '#harness/spec/money.ts';

/**
 * Decimal places of the amounts the balance object shows. The description says "decimal amount" and
 * no more; six places make the spend of a single request visible, so its order can be observed.
 */
export const BALANCE_DECIMALS = 6;

/** A key's starting balance, as decimal strings ("5", "2.00"). */
export interface StartingBalance {
  currency: string;
  granted: string;
  toppedUp: string;
}

/** The balance object of GET /user/balance. */
export interface BalanceInfo {
  is_available: boolean;
  balance_infos: { currency: string; total_balance: string; granted_balance: string; topped_up_balance: string }[];
}

type Bucket = 'granted' | 'topped_up';
type Account = { currency: string } & Record<Bucket, bigint>;

/**
 * Per-key account balances in pico-dollars, with two buckets spent in the order of
 * `spec.billing.spending_order` (the description: granted credits before topped-up balance).
 * A key is opened from its override, else from the default, the first time it is seen.
 */
export class Balances {
  readonly #order: readonly Bucket[];
  readonly #currency: string;
  readonly #defaults: StartingBalance;
  readonly #overrides: Readonly<Record<string, StartingBalance>>;
  readonly #accounts = new Map<string, Account>();

  constructor(spec: Spec, defaults: StartingBalance, overrides: Readonly<Record<string, StartingBalance>> = {}) {
    const order = spec.billing.spending_order;
    if (order.length !== 2 || !order.includes('granted') || !order.includes('topped_up')) {
      throw new Error(`balances: spec.billing.spending_order must list granted and topped_up once each, got ${JSON.stringify(order)}`);
    }
    this.#order = [...order];
    this.#currency = spec.pricing.currency;
    this.#defaults = defaults;
    this.#overrides = overrides;
    // Refuse a bad starting balance now, not at the first request of the key that carries it.
    open(defaults, this.#currency, 'default');
    for (const [key, b] of Object.entries(overrides)) open(b, this.#currency, `key ${key}`);
  }

  #account(key: string): Account {
    let account = this.#accounts.get(key);
    if (!account) {
      account = open(Object.hasOwn(this.#overrides, key) ? this.#overrides[key]! : this.#defaults, this.#currency, `key ${key}`);
      this.#accounts.set(key, account);
    }
    return account;
  }

  /**
   * The balance object. Each bucket is truncated to BALANCE_DECIMALS and `total_balance` is the sum of the
   * two printed buckets, so the three strings always add up; `is_available` reads the exact total.
   */
  info(key: string): BalanceInfo {
    const a = this.#account(key);
    const granted = truncateToShown(a.granted);
    const toppedUp = truncateToShown(a.topped_up);
    return {
      is_available: a.granted + a.topped_up > 0n,
      balance_infos: [
        {
          currency: a.currency,
          total_balance: formatUsd(granted + toppedUp, BALANCE_DECIMALS),
          granted_balance: formatUsd(granted, BALANCE_DECIMALS),
          topped_up_balance: formatUsd(toppedUp, BALANCE_DECIMALS),
        },
      ],
    };
  }

  /** Whether the key may make a request costing `amount` pico-dollars: a positive total of at least that much. */
  canCover(key: string, amount: bigint): boolean {
    nonNegative(amount, 'canCover');
    const a = this.#account(key);
    const total = a.granted + a.topped_up;
    return total > 0n && total >= amount;
  }

  /**
   * Spends `amount` pico-dollars bucket by bucket in the spec's spending order, never taking a bucket
   * below zero. Whatever both buckets cannot pay is dropped: the request was already allowed.
   */
  charge(key: string, amount: bigint): void {
    nonNegative(amount, 'charge');
    const a = this.#account(key);
    let due = amount;
    for (const bucket of this.#order) {
      const taken = due < a[bucket] ? due : a[bucket];
      a[bucket] -= taken;
      due -= taken;
    }
  }
}

/** Pico-dollars in the smallest amount shown (1e-6 USD at six decimals). */
const SHOWN_UNIT = 10n ** BigInt(12 - BALANCE_DECIMALS);

function truncateToShown(amount: bigint): bigint {
  return (amount / SHOWN_UNIT) * SHOWN_UNIT;
}

function nonNegative(amount: bigint, what: string): void {
  if (typeof amount !== 'bigint' || amount < 0n) throw new Error(`balances.${what}: amount must be a non-negative bigint of pico-dollars, got ${String(amount)}`);
}

function open(b: StartingBalance, currency: string, who: string): Account {
  if (b.currency !== currency) {
    throw new Error(`balances: ${who} has currency ${JSON.stringify(b.currency)}, but the spec prices in ${JSON.stringify(currency)}`);
  }
  const granted = parseUsd(b.granted);
  const toppedUp = parseUsd(b.toppedUp);
  if (granted < 0n || toppedUp < 0n) throw new Error(`balances: ${who} starts below zero (granted ${b.granted}, topped up ${b.toppedUp})`);
  return { currency, granted, topped_up: toppedUp };
}
