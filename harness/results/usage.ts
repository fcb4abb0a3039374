import type { UsageTotals } from './runRecord.ts';

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/**
 * Exact sum of USD amounts written as decimal strings ("0.0042"), with as many decimals as the most
 * precise term: floating point would turn 0.1 + 0.2 into 0.30000000000000004 in a report.
 */
export function addUsd(...amounts: readonly string[]): string {
  const parts = amounts.map((a) => {
    const m = DECIMAL.exec(a);
    if (!m) throw new TypeError(`not a decimal USD amount: ${JSON.stringify(a)}`);
    return { whole: m[1]!, fraction: m[2] ?? '' };
  });
  const scale = Math.max(0, ...parts.map((p) => p.fraction.length));
  const total = parts.reduce((sum, p) => sum + BigInt(p.whole + p.fraction.padEnd(scale, '0')), 0n);
  if (scale === 0) return total.toString();
  const digits = total.toString().padStart(scale + 1, '0');
  return `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}

/** Totals of several usages (the shards of one cell): tokens added, cost added exactly. */
export function sumUsage(usages: readonly UsageTotals[]): UsageTotals {
  return {
    promptTokens: usages.reduce((n, u) => n + u.promptTokens, 0),
    completionTokens: usages.reduce((n, u) => n + u.completionTokens, 0),
    cacheHitTokens: usages.reduce((n, u) => n + u.cacheHitTokens, 0),
    costUsd: addUsd('0', ...usages.map((u) => u.costUsd)),
  };
}
