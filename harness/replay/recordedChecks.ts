/**
 * What a recording holds, by check: the manifest's `checks` (per model, the ids whose exchanges it
 * recorded) and where it is, for the reason. Plain data: it travels in the run's config to workers.
 */
export interface RecordedChecks {
  dir: string;
  checks: Record<string, string[]>;
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
