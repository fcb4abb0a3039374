import type { CostEstimate } from '#harness/results/index.ts';
import { formatUsd, parseUsd } from '#harness/spec/money.ts';

/**
 * The estimate of a plan run `times` times over (`run --repeat N`): each repetition sends the whole
 * plan afresh in its own scope, shares no sample with another, and so costs what one run costs.
 * Every figure is N times one run's; the amounts are multiplied exactly, as pico-dollars.
 */
export function repeatedEstimate(once: CostEstimate, times: number): CostEstimate {
  if (times === 1) return once;
  const usd = (text: string) => formatUsd(parseUsd(text) * BigInt(times), 6);
  const { expected: e, upperBound: b } = once;
  return {
    method: once.method,
    requests: once.requests * times,
    expected: { promptTokens: e.promptTokens * times, completionTokens: e.completionTokens * times, costUsd: usd(e.costUsd) },
    upperBound: { promptTokens: b.promptTokens * times, completionTokens: b.completionTokens * times, costUsd: usd(b.costUsd), uncappedRequests: b.uncappedRequests * times },
  };
}
