import type { CheckResult } from '#harness/core/outcome.ts';
import type { RequestBound } from './spend/requestBound.ts';
import type { SuitesRun } from './suitesRun.ts';

/** The result travels from the worker to the reporter as vitest task meta. */
declare module 'vitest' {
  interface TaskMeta {
    svcResult?: CheckResult;
    /** Requests the check sent and the most they could have cost, in tokens (for the estimate). */
    svcRequests?: { count: number; bound: RequestBound };
    /** What the whole run came to besides its results (each test carries it; the collector keeps one). */
    svcRun?: Pick<SuitesRun, 'requestMs' | 'cancelled' | 'keyRefused' | 'transport'>;
  }
}

export {};
