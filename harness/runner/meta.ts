import type { CheckResult } from '#harness/core/outcome.ts';
import type { KeyRefused } from '#harness/transport/index.ts';
import type { RequestBound } from './spend/requestBound.ts';

/** The result travels from the worker to the reporter as vitest task meta. */
declare module 'vitest' {
  interface TaskMeta {
    svcResult?: CheckResult;
    /** The worker's running totals when the check ended: request busy time (ms), for the run's timings. */
    /** Requests the check sent and the most they could have cost, in tokens (for the estimate). */
    svcRequests?: { count: number; bound: RequestBound };
    svcWorker?: { id: string; requestMs: number };
    /** Set once the worker's transport declared the run's key refused (transport/keyRefusal.ts). */
    svcKeyRefused?: KeyRefused;
  }
}

export {};
