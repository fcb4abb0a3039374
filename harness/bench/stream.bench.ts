import { bench, describe } from 'vitest';
import { judgeStream } from '#harness/capture/judgeCapture.ts';
import { validatorFor } from '#harness/derive/validators/index.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { bodySourceOf, judgeAsARun, largestMaxOutput, parseFloor, responseAsARun, syntheticChunks } from '#harness/testing/syntheticStream.ts';

// One stream at the spec's maximum output, generated once; every bench reads the same bytes in
// 16 KiB pieces. Each iteration reads the whole stream (about 1 s), so few iterations are timed.
const { spec } = loadSpec();
const MAX = largestMaxOutput(spec);
const chunks = [...syntheticChunks(MAX)];
const bytes = chunks.reduce((n, c) => n + c.length, 0);
console.log(`stream: ${MAX.tokens} tokens (${MAX.model}'s max output), ${MAX.tokens + 3} events, ${bytes} bytes in ${chunks.length} pieces of 16 KiB`);

const judgeChunk = validatorFor(spec, 'chat_completion_chunk');
const OPTIONS = { iterations: 5, time: 0, warmupIterations: 1, warmupTime: 0 };

/** The transport's events with each chunk parsed and judged, nothing else: what readStream adds beyond it is its counts, samples and the assembled message. */
async function judgeKeepingNothing(): Promise<number> {
  let violations = 0;
  for await (const event of responseAsARun(bodySourceOf(chunks)).events()) {
    if (event.data.startsWith(':') || event.data === '[DONE]') continue;
    violations += judgeChunk(JSON.parse(event.data)).length;
  }
  return violations;
}

describe(`judging a stream of ${MAX.tokens} tokens`, () => {
  bench('eventsource-parser + JSON.parse (the floor)', () => parseFloor(bodySourceOf(chunks)).then(() => undefined), OPTIONS);
  bench('a run: RecordingResponse.events + readStream (judged, counted and assembled as chunks arrive)', () => judgeAsARun(spec, bodySourceOf(chunks)).then(() => undefined), OPTIONS);
  bench('RecordingResponse.events + JSON.parse + chunk validator alone', () => judgeKeepingNothing().then(() => undefined), OPTIONS);
  bench('validate: judgeStream (capture), parse + judge as it arrives', () => judgeStream(spec, bodySourceOf(chunks)).then(() => undefined), OPTIONS);
});
