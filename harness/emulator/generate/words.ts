import type { Prng } from './prng.ts';

// A fixed vocabulary keeps generated text readable and deterministic; no model weights involved.
const WORDS = [
  'the', 'service', 'answers', 'with', 'a', 'short', 'and', 'clear', 'reply', 'about', 'your',
  'question', 'here', 'is', 'what', 'I', 'found', 'it', 'depends', 'on', 'context', 'in', 'most',
  'cases', 'this', 'works', 'well', 'note', 'that', 'results', 'may', 'vary', 'consider', 'each',
  'step', 'carefully', 'then', 'check', 'again', 'finally', 'done', 'value', 'list', 'item',
] as const;

const REASONING = ['first', 'let', 'me', 'think', 'about', 'the', 'request', 'then', 'weigh', 'each', 'option', 'so', 'the', 'answer', 'follows'] as const;

/** Sentences of `count` words, capitalised and ended with a period every few words. */
export function sentences(rng: Prng, count: number, vocabulary: readonly string[] = WORDS): string {
  const out: string[] = [];
  let sinceStop = 0;
  for (let i = 0; i < count; i++) {
    let word = rng.pick(vocabulary);
    if (sinceStop === 0) word = word.charAt(0).toUpperCase() + word.slice(1);
    sinceStop++;
    const end = sinceStop >= 6 && rng.next() < 0.3;
    out.push(end || i === count - 1 ? `${word}.` : word);
    if (end) sinceStop = 0;
  }
  return out.join(' ');
}

export function reasoningText(rng: Prng, count: number): string {
  return sentences(rng, count, REASONING);
}
