/**
 * Exact USD amounts as `bigint` pico-dollars (1e-12 USD), so that per-token prices and running
 * balances never pass through floating point. The smallest price the spec writes (0.014 USD per
 * 1M tokens) is 14,000 pico-dollars per token: exact.
 */

/** Decimal places of one pico-dollar. */
export const PICO_DECIMALS = 12;
/** Pico-dollars in one dollar. */
export const PICO_PER_USD = 10n ** BigInt(PICO_DECIMALS);

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/**
 * "4.99" -> 4_990_000_000_000n. Accepts an optional minus sign, digits, and an optional fraction
 * (`"5"`, `"0.014"`, `"-1.50"`). Refuses anything else ("", ".5", "1.", "1e3", "+1", " 1") and any
 * fraction finer than a pico-dollar (digits beyond the 12th must be zeros).
 */
export function parseUsd(text: string): bigint {
  if (typeof text !== 'string') throw new Error(`parseUsd: expected a decimal string, got ${typeof text}`);
  const m = DECIMAL.exec(text);
  if (!m) throw new Error(`parseUsd: not a decimal USD amount: ${JSON.stringify(text)} (expected digits with an optional fraction, e.g. "4.99")`);
  const [, sign, whole, fractionAsWritten = ''] = m;
  const fraction = fractionAsWritten.replace(/0+$/, '');
  if (fraction.length > PICO_DECIMALS) {
    throw new Error(`parseUsd: ${JSON.stringify(text)} is finer than a pico-dollar (at most ${PICO_DECIMALS} significant decimal places)`);
  }
  const magnitude = BigInt(whole!) * PICO_PER_USD + BigInt(fraction.padEnd(PICO_DECIMALS, '0'));
  return sign === '-' ? -magnitude : magnitude;
}

/**
 * 4_990_000_000_000n -> "4.99". Truncates toward zero to `decimals` places (0 to 12); a negative
 * amount keeps its sign, unless truncation leaves zero ("-0.001" at 2 places prints "0.00").
 */
export function formatUsd(amount: bigint, decimals = 2): string {
  if (typeof amount !== 'bigint') throw new Error(`formatUsd: expected a bigint amount in pico-dollars, got ${typeof amount}`);
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > PICO_DECIMALS) {
    throw new Error(`formatUsd: decimals must be an integer from 0 to ${PICO_DECIMALS}, got ${decimals}`);
  }
  const negative = amount < 0n;
  const magnitude = negative ? -amount : amount;
  const units = magnitude / 10n ** BigInt(PICO_DECIMALS - decimals); // bigint division truncates
  const digits = units.toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals);
  const sign = negative && units !== 0n ? '-' : '';
  return decimals === 0 ? `${sign}${whole}` : `${sign}${whole}.${fraction}`;
}
