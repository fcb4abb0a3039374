import { answerKindOf, answerTimeFigure, type AnswerTimes } from '#harness/core/answerTimes.ts';

/** Samples kept per kind: past it a run's figure is its first answers' (memory stays bounded on long runs). */
const MAX_SAMPLES = 20_000;

/** Collects each attempt's time to its headers by kind of answer (core/answerTimes.ts), for the reports. */
export class AnswerTimesMeter {
  readonly #ms: Record<keyof AnswerTimes, number[]> = { served: [], refused: [] };

  add(status: number, latencyMs: number): void {
    const kind = answerKindOf(status);
    if (kind === undefined) return;
    const samples = this.#ms[kind];
    if (samples.length < MAX_SAMPLES) samples.push(latencyMs);
  }

  figures(): AnswerTimes {
    const served = answerTimeFigure(this.#ms.served);
    const refused = answerTimeFigure(this.#ms.refused);
    return { ...(served ? { served } : {}), ...(refused ? { refused } : {}) };
  }
}
