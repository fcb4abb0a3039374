import type { CheckContext, CheckOutcome } from '../context.ts';
import { get } from './body.ts';
import { shown, skip } from './outcome.ts';
import { chat } from './requests.ts';
import { sample } from './samples.ts';

/**
 * Checks whose verdict needs the endpoint to cooperate (to repeat a text, to call a tool it is
 * invited to) first show, on a control exchange, that it does. When it does not, nothing was seen:
 * the verdict is a skip that says why, never a pass.
 */
export const inconclusive = (why: string): CheckOutcome => skip(`inconclusive: ${why}`, 'inconclusive');


/** A text with a stop sequence in its middle: a model that repeats it shows where `stop` must cut. */
export const STOP = { sequence: 'STOP', prompt: 'Repeat: alpha beta STOP gamma delta' } as const;

/** A stop sequence in the middle of a text to repeat (STOP, or one in other scripts: support/scripts.ts). */
export interface StopText {
  readonly sequence: string;
  readonly prompt: string;
}

/** Why the unconstrained answer cannot show a stop sequence ending the output, or undefined when it can. */
export function stopPremise(control: unknown, stop: StopText = STOP): string | undefined {
  if (typeof control !== 'string') return `the control answer (no \`stop\`) has no text content (${shown(control)})`;
  const at = control.indexOf(stop.sequence);
  if (at < 0 || control.slice(at + stop.sequence.length).trim() === '') {
    return `the control answer without \`stop\` does not hold ${stop.sequence} followed by more text (${shown(control)}): the endpoint did not repeat the prompt, so where a stop sequence ends the output cannot be seen`;
  }
  return undefined;
}

/**
 * The answer to the stop prompt without `stop`: shared by the checks that need to know the endpoint
 * repeats it (so a stop sequence has something to cut). Undefined `why` means the premise holds.
 */
export async function stopControl(ctx: CheckContext, stop: StopText = STOP): Promise<{ text: string; why?: undefined } | { why: string }> {
  const { res, body, unreadable } = await sample(ctx, chat(ctx, { messages: [{ role: 'user', content: stop.prompt }] }));
  if (res.status !== 200 || body === undefined) return { why: `the control request (no \`stop\`) was answered HTTP ${res.status}${unreadable ? ` (${unreadable})` : ''}` };
  const text = get(body, 'choices', 0, 'message', 'content');
  const why = stopPremise(text, stop);
  return why ? { why } : { text: text as string };
}

/**
 * How the output runs past the stop sequence, or undefined. Nothing may follow the sequence's first
 * occurrence; whether the sequence itself is shown is left open. An output that leaves it out must
 * not hold what followed it in the control answer.
 */
export function runsPastStop(output: string, control: string, stop: StopText = STOP): string | undefined {
  const at = output.indexOf(stop.sequence);
  if (at >= 0) {
    const after = output.slice(at + stop.sequence.length);
    return after === '' ? undefined : `the output goes on after the stop sequence ${stop.sequence}: ${shown(after)}`;
  }
  const next = control.slice(control.indexOf(stop.sequence) + stop.sequence.length).trim().split(/\s+/)[0];
  return next && output.includes(next) ? `the output runs past the stop sequence: it holds ${shown(next)}, which follows ${stop.sequence} in the unconstrained answer (${shown(output)})` : undefined;
}

/**
 * Why an output that does not run past the stop sequence shows nothing of it, or undefined: it
 * must hold what came just before the sequence in the unconstrained answer, or it never got there.
 */
export function reachedStop(output: unknown, control: unknown, stop: StopText = STOP): string | undefined {
  if (typeof control !== 'string' || typeof output !== 'string') return `the answer with \`stop\` has no text content (${shown(output)}) to show where it ended`;
  const before = control.slice(0, control.indexOf(stop.sequence)).trim().split(/\s+/).at(-1);
  if (!before || output.includes(before)) return undefined;
  return `the answer with \`stop\` does not hold ${shown(before)}, which comes just before ${stop.sequence} in the unconstrained answer (${shown(output)}): it never reached the stop sequence, so what \`stop\` did cannot be seen`;
}

/** A text to repeat and a prefix from its middle: a reply that continues the prefix does not start over. */
export const PREFIX = { prompt: 'Repeat: alpha beta gamma delta epsilon', text: 'alpha beta gamma delta epsilon', prefix: 'gamma delta', before: 'alpha beta' } as const;

export function prefixPremise(control: unknown): string | undefined {
  return typeof control === 'string' && control.includes(PREFIX.text)
    ? undefined
    : `the control answer (no prefix) does not repeat ${shown(PREFIX.text)} (${shown(control)}): the endpoint did not follow the prompt, so whether a reply continues its prefix cannot be seen`;
}

/**
 * A reply forced to start with PREFIX.prefix either shows the prefix or goes on from it; one that
 * holds the words before the prefix started over, as if there were no prefix.
 */
export function ignoresPrefix(reply: unknown): string | undefined {
  if (typeof reply !== 'string' || reply.startsWith(PREFIX.prefix)) return undefined;
  return reply.includes(PREFIX.before) ? `the reply starts over instead of continuing the prefix ${shown(PREFIX.prefix)}: ${shown(reply)}` : undefined;
}

/** Whether a text answer repeated what it was asked to, for checks that build on "Repeat:". */
export function repeated(answer: unknown, text: string): boolean {
  return typeof answer === 'string' && answer.includes(text);
}

