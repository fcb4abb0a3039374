import type { Spec } from '#harness/spec/model.ts';
import { validatorFor, type Violation } from '#harness/derive/validators/index.ts';
import type { Kind } from './kinds.ts';
import { looksLikeSse, splitLines, splitSse, type SplitStream } from './stream.ts';

/** A violation in a captured body; `item` is the chunk index in a stream. */
export type CaptureViolation = Violation & { item?: number };

export interface CaptureVerdict {
  kind: Kind;
  /** Bodies judged: 1 for a JSON body, the number of chunks for a stream. */
  items: number;
  violations: CaptureViolation[];
  /** Facts about the capture that are not violations: framing, keep-alives, `[DONE]`, models. */
  notes: string[];
}

export interface JudgeCaptureOptions {
  /** Captured model id -> the spec's model id (production ids in real captures). Only used in notes. */
  modelMap?: Readonly<Record<string, string>>;
  profile?: 'default' | 'strict';
}

/**
 * Judges a captured body (a JSON body, an SSE stream, or chunks stored one per line) as `kind`
 * against the spec. Leading blank lines (keep-alives before a slow body) are skipped and noted. A body
 * that is not JSON where JSON was due is one must-level violation at the root; a stream payload that
 * is not JSON is one per payload. A missing required field is reported at its own path (`/usage`).
 * Never throws on the capture's content.
 */
export function judgeCapture(spec: Spec, text: string, kind: Kind, options: JudgeCaptureOptions = {}): CaptureVerdict {
  const profile = options.profile ?? 'default';
  const notes: string[] = [];
  const leading = /^\s*/.exec(text)?.[0] ?? '';
  const blankLines = (leading.match(/\r\n|\n|\r/g) ?? []).length;
  if (blankLines > 0) notes.push(`${blankLines} blank line(s) before the body (keep-alive), skipped`);
  const body = text.slice(leading.length);
  const validator = validatorFor(spec, kind, { profile });
  const judge = (value: unknown): Violation[] => validator(value).map(atOwnPath);
  const models: string[] = [];

  let items: number;
  const violations: CaptureViolation[] = [];
  const single = kind === 'chat_completion_chunk' ? parseJson(body) : undefined;
  if (kind === 'chat_completion_chunk' && single?.ok !== true) {
    const stream = looksLikeSse(body) ? splitSse(body) : splitLines(body);
    notes.push(...streamNotes(stream));
    items = stream.payloads.length;
    // The terminator is a must of streaming.yaml. A capture with SSE framing that lacks it breaks
    // it; a line-per-chunk capture recorded no framing, so there its absence says nothing.
    // An unclosed final `data: [DONE]` (the last blank line lost, as in pasted captures) is taken as
    // the terminator: clients that flush at the end of the body read it; the note above says so.
    const unclosedDone = stream.unterminatedTail?.trim() === 'data: [DONE]';
    if (stream.framing === 'sse' && stream.done !== true && !unclosedDone) {
      violations.push({ path: '', message: 'the stream ends without `data: [DONE]`', level: 'must', specRef: 'streaming.events.terminator', keyword: 'terminator', params: {} });
    }
    if (stream.eventsAfterDone > 0) {
      violations.push({ path: '', message: `${stream.eventsAfterDone} event(s) after \`data: [DONE]\``, level: 'must', specRef: 'streaming.rules.stream.done-last', keyword: 'terminator', params: {} });
    }
    for (const [i, payload] of stream.payloads.entries()) {
      if (!payload.ok) {
        violations.push({
          item: i,
          path: '',
          message: `payload is not JSON (${payload.error}): ${JSON.stringify(payload.text.slice(0, 60))}`,
          level: 'must',
          specRef: 'streaming.framing',
          keyword: 'json',
          params: { error: payload.error },
        });
        continue;
      }
      models.push(...modelsOf(kind, payload.value));
      for (const v of judge(payload.value)) violations.push({ ...v, item: i });
    }
  } else {
    items = 1;
    const parsed = single ?? parseJson(body);
    if (parsed.ok) {
      if (kind === 'chat_completion_chunk') notes.push('one chunk on its own, not a stream');
      models.push(...modelsOf(kind, parsed.value));
      violations.push(...judge(parsed.value));
    } else {
      const what = spec.objects[kind]?.title ?? kind;
      violations.push({
        path: '',
        message: `body is not JSON (${parsed.error}); the description promises a JSON ${what}`,
        level: 'must',
        specRef: kind === 'error_envelope' ? 'errors.envelope' : `objects.${kind}`,
        keyword: 'json',
        params: { error: parsed.error },
      });
    }
  }
  notes.push(...modelNotes(spec, [...new Set(models)], options.modelMap ?? {}));
  return { kind, items, violations, notes };
}

/** A missing field is reported at its own path (`/usage`), as an unknown one is, so a reader sees which. */
function atOwnPath(v: Violation): Violation {
  const missing = v.keyword === 'required' ? v.params.missingProperty : undefined;
  return typeof missing === 'string' ? { ...v, path: `${v.path}/${missing.replaceAll('~', '~0').replaceAll('/', '~1')}` } : v;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
}

function streamNotes(s: SplitStream): string[] {
  const notes: string[] = [];
  if (s.framing === 'lines') notes.push('one chunk JSON per line: no SSE framing recorded (no `data: ` prefixes)');
  if (s.comments.length > 0) {
    const kinds = [...new Set(s.comments)].map((c) => JSON.stringify(c)).join(', ');
    notes.push(`${s.comments.length} comment line(s) (${kinds}), skipped as a client skips them`);
  }
  if (s.namedEvents.length > 0) notes.push(`${s.namedEvents.length} event(s) carry an \`event:\` name (${[...new Set(s.namedEvents)].join(', ')}); the description shows none`);
  if (s.done === true) notes.push('`data: [DONE]` closes the stream');
  else if (s.framing === 'sse') notes.push('no `data: [DONE]` event: the stream ends without its terminator (streaming.framing)');
  else notes.push('no `[DONE]` line (a line-per-chunk capture does not record it)');
  if (s.eventsAfterDone > 0) notes.push(`${s.eventsAfterDone} event(s) after \`data: [DONE]\` (streaming.rules stream.done-last)`);
  if (s.unterminatedTail !== undefined) {
    notes.push(`the body ends with an event never closed by a blank line, which an SSE client discards: ${JSON.stringify(s.unterminatedTail.trim().slice(0, 60))}`);
  }
  if (s.payloads.length === 0) notes.push('no chunk in the stream');
  return notes;
}

/** Model ids a body names: `model` of completions and chunks, entry ids of a model list. */
function modelsOf(kind: Kind, value: unknown): string[] {
  if (typeof value !== 'object' || value === null) return [];
  const record = value as Record<string, unknown>;
  if (kind === 'model_list') {
    return Array.isArray(record.data) ? record.data.flatMap((e: unknown) => (typeof e === 'object' && e !== null && typeof (e as { id?: unknown }).id === 'string' ? [(e as { id: string }).id] : [])) : [];
  }
  return typeof record.model === 'string' ? [record.model] : [];
}

function modelNotes(spec: Spec, models: string[], map: Readonly<Record<string, string>>): string[] {
  return models.map((id) => {
    const mapped = Object.hasOwn(map, id) ? map[id]! : undefined;
    if (mapped !== undefined) {
      return Object.hasOwn(spec.models, mapped) ? `model ${id} is the spec's ${mapped} (--model-map)` : `model ${id} is mapped to ${mapped}, which is not a spec model id`;
    }
    return Object.hasOwn(spec.models, id) ? `model ${id} is a spec model id` : `model ${id} is not a spec model id (map it with --model-map ${id}=SPEC_ID)`;
  });
}
