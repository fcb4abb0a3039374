import type { CheckContext } from '../context.ts';
import { defaultModelOnly, defineCheck, type Check } from '../define.ts';
import { NO_UPSTREAM } from './pair.ts';

/** A gateway check (this folder, index.ts): judged on the default model, against the harness as the upstream. */
export function gatewayCheck(check: Omit<Check, 'area' | 'appliesTo' | 'upstream'>): Check {
  return defineCheck({ ...check, appliesTo: defaultModelOnly, upstream: true });
}

/** A gateway check's strength: what the description entails of the service (must), or advises (should). */
export const grade = {
  entailed: (phrase: string) => ({ severity: 'must' as const, basis: { entailed: phrase } }),
  advised: { severity: 'should' as const, basis: 'advised' as const },
};

/** Why a gateway check judges nothing in this run (no upstream), or undefined. */
export const withUpstream = (ctx: CheckContext): string | undefined => (ctx.upstream === undefined ? NO_UPSTREAM : undefined);

/** Faults are the embedded emulator's to answer with; a tap passes the real service's answers. */
export const faultsPossible = (ctx: CheckContext): string | undefined => (ctx.upstream !== undefined && !ctx.upstream.faults ? 'the upstream is a tap in front of a real service (--upstream-url): no fault is answered on purpose there' : withUpstream(ctx));

/** Whether a status is of the class starting at `lo` (400: a 4xx). */
export const isStatus = (status: number, lo: number): boolean => status >= lo && status < lo + 100;

/** Whether the client was told the upstream's status: the same one, or a 5xx for a 5xx (the same cause: not the client's). */
export const statusPassedOn = (got: number, sent: number): boolean => got === sent || (isStatus(got, 500) && isStatus(sent, 500));
