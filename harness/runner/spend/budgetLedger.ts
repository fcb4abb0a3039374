import { UsageError } from '#harness/core/errors/index.ts';
import type { CheckResult } from '#harness/core/outcome.ts';
import type { CostEstimate, RunBudget, RunRecord } from '#harness/results/index.ts';
import type { Spec } from '#harness/spec/model.ts';
import { formatUsd, parseUsd } from '#harness/spec/money.ts';
import { costOfUse } from '#harness/spec/pricing.ts';
import type { RunConfig } from '../runConfig.ts';

/** Why a check did not run once the spend reached the budget (`limitUsd` as the flag or the target's share gave it). */
export function notRunForBudget(limitUsd: string): string {
  return `budget: not run, the run's spend reached its --budget-usd of ${limitUsd} USD`;
}

/**
 * A run's --budget-usd across its targets, kept by the CLI process: what each target may still
 * spend (the workers' own guard, meter.ts, enforces it), whether the estimate fits, and a stop once
 * the spend seen in results reaches it.
 */
export class BudgetLedger {
  #spentPico = 0n;
  #reached = false;

  /** `limitUsd` as the flag gave it (for messages and reports), `limitPico` the same amount parsed. */
  constructor(
    readonly limitUsd: string,
    private readonly limitPico: bigint,
  ) {}

  /** What is left for the next target, priced at `pricedAt` (RunConfig.budget). */
  remaining(pricedAt: Date): NonNullable<RunConfig['budget']> {
    const left = this.#left();
    return { limitUsd: formatUsd(left > 0n ? left : 0n, 12).replace(/\.?0+$/, '') || '0', pricedAt: pricedAt.toISOString() };
  }

  /** A run whose estimate is above the budget does not start: nothing has been spent yet. */
  refuseAbove(estimate: CostEstimate, command: string): void {
    if (parseUsd(estimate.expected.costUsd) > this.limitPico) {
      throw new UsageError(`${command}: the estimated cost ${estimate.expected.costUsd} USD is above --budget-usd ${this.limitUsd}. Raise --budget-usd, or run less (--model, --only, --runs, --shard).`);
    }
  }

  /**
   * Backs up the worker's own guard for one target: once the spend its results report reaches what
   * was left, `signal` aborts and no new check starts.
   */
  watch(spec: Spec, pricedAt: Date): { seen(result: CheckResult): void; signal: AbortSignal } {
    const stop = new AbortController();
    const left = this.#left();
    let seenPico = 0n;
    return {
      signal: stop.signal,
      seen: (r) => {
        if (!r.tokens) return;
        seenPico += costOfUse(spec, r.model, r.tokens, pricedAt);
        if (seenPico >= left) stop.abort();
      },
    };
  }

  /** Why a planned check did not run once the budget stopped the run. */
  get notRun(): string {
    return notRunForBudget(this.limitUsd);
  }

  /** After a target: what its records cost, and whether the budget kept any check from running. */
  settle(records: readonly RunRecord[], results: readonly CheckResult[]): void {
    this.#spentPico += records.reduce((sum, r) => sum + parseUsd(r.usage.costUsd), 0n);
    if (results.some((r) => r.verdict === 'skip' && r.skipKind === 'budget')) this.#reached = true;
  }

  /** What the reports say of the budget. */
  report(): RunBudget {
    return { limitUsd: this.limitUsd, reached: this.#reached };
  }

  #left(): bigint {
    return this.limitPico - this.#spentPico;
  }
}
