/**
 * Where a run's adaptive limit on requests in flight went and why (transport/adaptiveLimit.ts
 * decides; the run's records keep it and the reports word it): typed evidence, never prose.
 */

/** Why the limit moved: the evidence, as data (the reports word it). */
export type LimitReason =
  /** Grew: answers came back as fast as the route answers at rest (`latencyMs`, the short window's). */
  | { kind: 'flat'; latencyMs: number }
  /** Grew: refusals took a wait worth sharing (`latencyMs`, this one's): the run waited on them, the endpoint was not loaded by them. */
  | { kind: 'waiting'; latencyMs: number }
  /** Halved: the endpoint answered 429 or 503. */
  | { kind: 'refused'; status: number }
  /** Came down by the ratio: the short window's latency rose above the long window's. */
  | { kind: 'slower'; shortMs: number; longMs: number }
  /** Halved: one answer took far longer than the route's fastest. */
  | { kind: 'overloaded'; latencyMs: number; fastestMs: number }
  /** Halved: no answer within the timeouts. */
  | { kind: 'silent' }
  /** Lowered to what a rate-limit header said was left. */
  | { kind: 'remaining'; remaining: number };

/** A move of the limit, or several growths in a row merged into one (`sinceMs` to `atMs`). */
export interface LimitChange {
  /** Milliseconds since the limit was made: when the move began. */
  sinceMs: number;
  /** When it ended (equal to `sinceMs` for a decrease). */
  atMs: number;
  from: number;
  to: number;
  why: LimitReason;
}
