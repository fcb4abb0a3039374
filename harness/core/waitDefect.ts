import type { Defect } from './outcome.ts';

/** Seconds as a person reads them: whole, or to a tenth below ten. */
export const seconds = (ms: number): string => {
  const s = ms / 1000;
  return s >= 10 || Number.isInteger(s) ? String(Math.round(s)) : s.toFixed(1);
};

/** A wait asked beyond the back-off cap, typed, in words every phase says alike ("asked to wait 3600 s; the description caps back-off at 60 s"). */
export function waitDefect(status: number, askedMs: number, capMs: number): Extract<Defect, { kind: 'wait' }> {
  return { kind: 'wait', status, askedMs, capMs, what: `HTTP ${status} asked to wait ${seconds(askedMs)} s; the description caps back-off at ${seconds(capMs)} s` };
}
