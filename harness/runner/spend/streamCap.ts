import type { Spec } from '#harness/spec/model.ts';
import { parseQuantity } from '#harness/spec/quantity.ts';

/** The most bytes one streamed token takes on the wire: a real chunk carries a token in about 280. */
export const BYTES_PER_STREAMED_TOKEN = 512;
/** Room for what max_tokens may not count (reasoning, where the description does not say it is counted), and the framing. */
export const STREAM_SLACK_BYTES = 16 * 1024 * 1024;

/**
 * How many bytes a stream asked for by `body` may take before it is one that does not end: the
 * tokens it asked for (`max_tokens`, else the model's maximum output from the spec) at
 * BYTES_PER_STREAMED_TOKEN, plus STREAM_SLACK_BYTES. Undefined (the transport's default) for a
 * request that is not a stream, or when neither bound is known.
 */
export function streamCapOf(spec: Spec, model: string, body: unknown): number | undefined {
  if (typeof body !== 'object' || body === null || (body as { stream?: unknown }).stream !== true) return undefined;
  const asked = (body as { max_tokens?: unknown }).max_tokens;
  const max = spec.models[model] ? parseQuantity(spec.models[model].max_output_tokens)?.high : undefined;
  const tokens = typeof asked === 'number' && Number.isInteger(asked) && asked > 0 ? asked : max;
  return tokens === undefined ? undefined : tokens * BYTES_PER_STREAMED_TOKEN + STREAM_SLACK_BYTES;
}
