import { UsageError } from '#harness/core/errors/index.ts';

/**
 * --model-map as `run` and `validate` read it. A model id is whatever the other side accepts:
 * claude-code-router's `emu,svc-v4-flash`, OpenRouter's `openrouter/deepseek/deepseek-chat`,
 * Ollama's `ollama:llama3`, `name@version`. So each value of the (repeatable) flag is one pair split
 * at its first `=` (a spec id never holds one), and a comma starts another pair only where the text
 * after it, up to the next comma, holds an `=`: `a=x,b=y` is two pairs, as it always was, while
 * `a=emu,svc-v4-flash` is one (and validate's `emu,deepseek-chat=svc-chat` too). An id holding both a comma and an `=` after it cannot be written on
 * the command line; a config file's `model_map` (a YAML mapping) takes any string.
 */
export interface ModelMapPair {
  /** The pair as written, for messages. */
  text: string;
  left: string;
  right: string;
}

/** The pairs of every value, in order; a pair with an empty side is a UsageError naming `flag`. */
export function modelMapPairs(command: string, values: readonly string[] | undefined, shape: string): ModelMapPair[] {
  const pairs: ModelMapPair[] = [];
  for (const value of values ?? []) {
    const pieces: string[] = [];
    let lead: string | undefined;
    for (const piece of value.split(',')) {
      // A piece with no `=` is the rest of the id before it (or, first, the start of the one after it:
      // validate's CAPTURED_ID=SPEC_ID).
      if (!piece.includes('=') && pieces.length > 0) pieces[pieces.length - 1] += `,${piece}`;
      else if (!piece.includes('=')) lead = lead === undefined ? piece : `${lead},${piece}`;
      else {
        pieces.push(lead === undefined ? piece : `${lead},${piece}`);
        lead = undefined;
      }
    }
    if (lead !== undefined) pieces.push(lead);
    for (const text of pieces) {
      const at = text.indexOf('=');
      const left = at < 0 ? '' : text.slice(0, at).trim();
      const right = at < 0 ? '' : text.slice(at + 1).trim();
      if (!left || !right) throw new UsageError(`${command}: --model-map takes ${shape} (got ${JSON.stringify(text)}): one pair per flag, or several separated by commas; the id may hold commas, slashes, colons and @ (e.g. --model-map 'svc-v4-flash=emu,svc-v4-flash').`);
      pairs.push({ text, left, right });
    }
  }
  return pairs;
}

/** `run`'s --model-map: spec id -> the target's id. A spec id mapped twice is ambiguous, so refused. */
export function parseModelMap(command: string, values: readonly string[] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { left, right } of modelMapPairs(command, values, 'SPEC_ID=THEIR_ID')) {
    if (Object.hasOwn(out, left) && out[left] !== right) throw new UsageError(`${command}: --model-map maps ${left} twice (${JSON.stringify(out[left])} and ${JSON.stringify(right)}): give one id per spec model.`);
    out[left] = right;
  }
  return out;
}
