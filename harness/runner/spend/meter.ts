import { threadId } from 'node:worker_threads';
import type { TokenUse } from '#harness/core/outcome.ts';
import { formatUsd, parseUsd } from '#harness/spec/money.ts';
import { costOfUse } from '#harness/spec/pricing.ts';
import type { Spec } from '#harness/spec/model.ts';
import { BudgetReachedError } from './BudgetReachedError.ts';

/**
 * What one target run has spent and how long it waited on the network, shared by every check it runs.
 * Spend is added as each answer settles, so the budget stops new requests at request granularity;
 * requests already in flight when it is reached still complete (at most --concurrency of them).
 */
export class Meter {
  readonly id = `thread-${threadId}`;
  #inFlight = 0;
  #busySince = 0;
  #busyMs = 0;
  #spentPico = 0n;
  readonly #limitPico: bigint | undefined;

  constructor(
    private readonly spec: Spec,
    private readonly budget: { limitUsd: string; pricedAt: string } | undefined,
  ) {
    this.#limitPico = budget ? parseUsd(budget.limitUsd) : undefined;
  }

  /** Throws BudgetReachedError when the spend has reached the budget: nothing more is sent. */
  guard(): void {
    if (this.reached()) throw new BudgetReachedError(this.budget!.limitUsd, formatUsd(this.#spentPico, 6));
  }

  reached(): boolean {
    return this.#limitPico !== undefined && this.#spentPico >= this.#limitPico;
  }

  /** Marks a request in flight; the function returned ends it (idempotent). */
  begin(): () => void {
    if (this.#inFlight++ === 0) this.#busySince = performance.now();
    let open = true;
    return () => {
      if (!open) return;
      open = false;
      if (--this.#inFlight === 0) this.#busyMs += performance.now() - this.#busySince;
    };
  }

  /** Wall time with at least one request in flight, so far. */
  requestMs(): number {
    return Math.round(this.#busyMs + (this.#inFlight > 0 ? performance.now() - this.#busySince : 0));
  }

  /** Only a budget needs the spend counted, at the prices it was given (RunConfig.budget.pricedAt). */
  spend(model: string, tokens: TokenUse): void {
    if (this.budget === undefined || tokens.promptTokens + tokens.completionTokens === 0) return;
    this.#spentPico += costOfUse(this.spec, model, tokens, new Date(this.budget.pricedAt));
  }
}
