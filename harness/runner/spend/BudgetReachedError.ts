import { HarnessError } from '#harness/core/errors/index.ts';

/** A request refused by the runner because the run's spend reached --budget-usd: the check is skipped. */
export class BudgetReachedError extends HarnessError {
  constructor(limitUsd: string, spentUsd: string) {
    super('HARNESS_BUDGET_REACHED', `budget: not sent, the run has spent ${spentUsd} USD of its ${limitUsd} USD budget (--budget-usd)`);
    this.name = 'BudgetReachedError';
  }
}

export function isBudgetReached(value: unknown): value is BudgetReachedError {
  return value instanceof BudgetReachedError;
}
