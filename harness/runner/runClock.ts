import { skipKindOf, type RunRecord, type RunTimings } from '#harness/results/index.ts';
import type { SuitesRun } from './suitesRun.ts';

/** A check that did not run (interrupted, or stopped by the budget) takes no time and is not counted. */
const notRun = (r: RunRecord['results'][number]) => ['interrupted', 'budget'].includes(skipKindOf(r) ?? '');

/**
 * Where a run's time goes, added up over its targets: start-up (process start to the first check),
 * checks (first to last check of each target), the share of that with a request in flight, and
 * reporting. Times are performance.now() of the CLI process, so start-up includes module loading.
 */
export class RunClock {
  #startupMs: number | undefined;
  /** Each target's first to last check: targets run at once overlap, and time is counted once. */
  readonly #spans: [number, number][] = [];
  #requestsMs = 0;

  /** One target's suites, once run. */
  add(suites: Pick<SuitesRun, 'firstCheckAt' | 'lastCheckAt' | 'requestMs'>): void {
    if (suites.firstCheckAt === undefined || suites.lastCheckAt === undefined) return;
    this.#startupMs = Math.min(this.#startupMs ?? Infinity, suites.firstCheckAt);
    this.#spans.push([suites.firstCheckAt, suites.lastCheckAt]);
    // Busy time summed over workers can exceed the wall time of the checks.
    this.#requestsMs += Math.min(suites.lastCheckAt - suites.firstCheckAt, suites.requestMs);
  }

  /** The time some target's checks were running: the union of the spans. */
  get #checksMs(): number {
    let total = 0;
    let end = -Infinity;
    for (const [from, to] of [...this.#spans].sort((a, b) => a[0] - b[0])) {
      if (to <= end) continue;
      total += to - Math.max(from, end);
      end = to;
    }
    return total;
  }

  /** The run's timings, now that its reports took `reportingMs` to write. */
  timings(records: readonly RunRecord[], reportingMs: number): RunTimings {
    const wallMs = performance.now();
    const startupMs = this.#startupMs ?? wallMs - reportingMs;
    const checks = records.reduce((n, r) => n + r.results.filter((x) => !notRun(x)).length, 0);
    return {
      wallMs: Math.round(wallMs),
      startupMs: Math.round(startupMs),
      requestsMs: Math.round(Math.min(this.#requestsMs, this.#checksMs)),
      judgingMs: Math.round(Math.max(0, this.#checksMs - this.#requestsMs)),
      reportingMs: Math.round(reportingMs),
      otherMs: Math.max(0, Math.round(wallMs - startupMs - this.#checksMs - reportingMs)),
      checks,
      checksPerSecond: wallMs > 0 ? Math.round((checks / (wallMs / 1000)) * 10) / 10 : 0,
    };
  }
}
