/**
 * Orders check and model ids (lowercase letters, digits, `.` and `-`) as `localeCompare` does,
 * without ICU: the first `localeCompare` of a process builds a collator, ~10 ms of a run on
 * loopback. For these characters the root collation's order (`-` before `.` before digits before
 * letters, a prefix first) is the code units' order; `compareIds.test.ts` holds it to every id of
 * the shipped spec and registry.
 */
export const compareIds = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
