/**
 * Test helper (test code only): load phases (core/load.ts LoadRun) made up by hand, for the
 * figures, the reports and the merge of shards. `madeUpLoadRun` is small enough to work its
 * figures out on paper (loadFigures.test.ts does); `rampLoadRun` is a model's phase over the four
 * steps with figures that grow with the requests in flight, as an endpoint's do.
 */
import { stepsOf, type LoadExchange, type LoadRun } from '#harness/core/load.ts';

const exchange = { request: { method: 'POST', url: 'http://127.0.0.1:43817/chat/completions', headers: {} }, attempts: 1 };

function x(step: number, inFlight: number, fields: Partial<LoadExchange>): LoadExchange {
  return { step, inFlight, prompt: 0, stream: true, sentAt: 0, exchange, ...fields };
}

/**
 * N = 4: steps 1, 2 and 4. Step 0: a stream (TTFT 100, gaps 10 and 20, 10 tokens over 0.2 s) and a
 * plain 200 (8 tokens). Step 1: a stream (TTFT 120, gap 30, 5 tokens over 0.1 s), a 429, a 503 and
 * a request with no answer. Step 2: two streams (TTFT 200 and 300; gaps 40, 50, 60; 20 tokens over
 * 0.2 s, and 3 tokens with no time between first token and end), a 500, and one the run stopped.
 */
export function madeUpLoadRun(): LoadRun {
  return {
    model: 'svc-v4-flash',
    n: 4,
    steps: stepsOf(4),
    prompts: [2, 24, 96, 240],
    exchanges: [
      x(0, 1, { status: 200, headersMs: 50, firstTokenMs: 100, endMs: 300, chunkGapsMs: [20, 10], completionTokens: 10, promptTokens: 5 }),
      x(0, 1, { stream: false, status: 200, headersMs: 240, endMs: 250, completionTokens: 8 }),
      x(1, 2, { status: 200, firstTokenMs: 120, endMs: 220, chunkGapsMs: [30], completionTokens: 5 }),
      x(1, 2, { status: 429, headersMs: 3, endMs: 4 }),
      x(1, 2, { stream: false, status: 503, headersMs: 3, endMs: 4 }),
      x(1, 2, { trouble: { kind: 'no-answer', code: 'ECONNRESET', what: 'reset before any status' } }),
      x(2, 4, { status: 200, firstTokenMs: 200, endMs: 400, chunkGapsMs: [60, 40, 50], completionTokens: 20 }),
      x(2, 4, { status: 200, firstTokenMs: 300, endMs: 300, completionTokens: 3 }),
      x(2, 4, { stream: false, status: 500, headersMs: 9, endMs: 10 }),
      x(2, 4, { trouble: { kind: 'stopped', code: 'HARNESS_INTERRUPTED', what: 'the run was stopped' } }),
    ],
    stepMs: [300, 250, 500],
    recovery: { windowMs: 2000, recoveredMs: 150, tries: [x(2, 1, { status: 200, endMs: 150 })] },
  };
}

/** How a made-up endpoint slows down: its TTFT and chunk gap at `inFlight`, and how many of that step it refuses. */
export interface RampShape {
  ttftMs: (inFlight: number) => number;
  gapMs: (inFlight: number) => number;
  refused: (inFlight: number) => number;
}

/**
 * A phase of `n` on `model`: every step sends 2 x its requests in flight, streamed, 16 tokens each,
 * the i-th of a step a little slower than the one before (so percentiles differ), and the step's
 * first `refused` requests answered 429.
 */
export function rampLoadRun(model: string, n: number, shape: RampShape): LoadRun {
  const steps = stepsOf(n);
  const exchanges: LoadExchange[] = [];
  const stepMs: number[] = [];
  steps.forEach((inFlight, step) => {
    const count = 2 * inFlight;
    let longest = 0;
    for (let i = 0; i < count; i++) {
      if (i < shape.refused(inFlight)) {
        exchanges.push(x(step, inFlight, { status: 429, headersMs: 2, endMs: 3 }));
        continue;
      }
      const first = shape.ttftMs(inFlight) * (1 + i / count);
      const gap = shape.gapMs(inFlight);
      const endMs = first + 15 * gap;
      longest = Math.max(longest, endMs);
      exchanges.push(x(step, inFlight, { status: 200, headersMs: first / 2, firstTokenMs: first, endMs, chunkGapsMs: Array.from({ length: 15 }, (_, k) => gap * (1 + (k % 3) / 10)), completionTokens: 16 }));
    }
    stepMs.push(2 * longest);
  });
  return { model, n, steps, prompts: [2, 24, 96, 240], exchanges, stepMs, recovery: { windowMs: 5000, recoveredMs: 40, tries: [] } };
}
