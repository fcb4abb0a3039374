import type { CheckResult } from '#harness/core/outcome.ts';

/** The result travels from the worker to the reporter as vitest task meta. */
declare module 'vitest' {
  interface TaskMeta {
    svcResult?: CheckResult;
  }
}

export {};
