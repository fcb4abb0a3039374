import { isUnspecified, type Quantity } from './model.ts';

/**
 * A quantity as the description writes it. "8K" may mean 8,000 or 8,192 tokens; the description
 * does not say, so both readings are kept: `low` is the decimal reading, `high` the binary one.
 * A bound check only uses values that fall on the same side under both readings.
 */
export interface Range {
  low: number;
  high: number;
  asWritten: string;
  exact: boolean;
}

const UNITS: Record<string, [number, number]> = { K: [1_000, 1_024], M: [1_000_000, 1_048_576] };

export function parseQuantity(q: Quantity): Range | undefined {
  if (isUnspecified(q)) return undefined;
  if (typeof q === 'number') return { low: q, high: q, asWritten: String(q), exact: true };
  const m = /^([0-9]+(?:\.[0-9]+)?)([KM])$/.exec(q);
  if (!m) throw new Error(`not a quantity: ${q}`);
  const [dec, bin] = UNITS[m[2] as 'K' | 'M']!;
  const n = Number(m[1]);
  return { low: Math.round(n * dec), high: Math.round(n * bin), asWritten: q, exact: false };
}
