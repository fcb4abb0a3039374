/**
 * What a recording holds, by check: the manifest's `checks` (per model, the ids whose exchanges it
 * recorded) and where it is, for the reason. Plain data: it travels in the run's config to workers.
 */
export interface RecordedChecks {
  dir: string;
  checks: Record<string, string[]>;
  /** The load phase's N it recorded (`run --load`), when it recorded one. */
  load?: number;
}

/**
 * Why the load phase of `n` is not replayed, or undefined when the recording drove that N: answers
 * recorded at 16 in flight say nothing of 64, and the replay would answer them all the same.
 */
export function loadNotRecordedReason(recording: RecordedChecks | undefined, n: number): string | undefined {
  if (recording === undefined || recording.load === n) return undefined;
  return `not recorded: the recording ${recording.dir} ${recording.load === undefined ? 'holds no load phase' : `drove a load phase of ${recording.load}`}, not of ${n}; replay it with --load ${recording.load ?? 0}, or record again with --load ${n}`;
}

/**
 * Why `checkId` on `model` is not replayed, or undefined when the recording holds it. A check the
 * recording never ran would otherwise be answered by the alike match with another check's bytes,
 * or, unanswered, fail as if the endpoint had: it is skipped as not recorded instead.
 * Kept free of msw, so the runner can ask it without loading the replay server.
 */
export function notRecordedReason(recording: RecordedChecks | undefined, checkId: string, model: string): string | undefined {
  if (recording === undefined) return undefined;
  if (recording.checks[model]?.includes(checkId)) return undefined;
  return `not recorded: the recording ${recording.dir} holds no exchange of ${checkId} on ${model}; record it again with this check to judge it`;
}
