import type { Spec } from '#harness/spec/model.ts';
import { validatorFor, type Violation } from '#harness/derive/validators/index.ts';
import { isRecord } from '#harness/core/isRecord.ts';
import { sumViolations } from '#harness/derive/meanings/sums.ts';
import type { Kind } from './kinds.ts';
import { looksLikeSse, StreamSplitter, type StreamSummary } from './stream.ts';

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
  const { notes, body } = skipLeadingBlankLines(text);
  const single = kind === 'chat_completion_chunk' ? parseJson(body) : undefined;
  if (kind === 'chat_completion_chunk' && single?.ok !== true) {
    const judge = new StreamJudge(spec, looksLikeSse(body) ? 'sse' : 'lines', options);
    judge.feed(body);
    const verdict = judge.end();
    return { ...verdict, notes: [...notes, ...verdict.notes] };
  }
  const validator = validatorFor(spec, kind, { profile: options.profile ?? 'default' });
  const violations: CaptureViolation[] = [];
  const models: string[] = [];
  const parsed = single ?? parseJson(body);
  if (parsed.ok) {
    if (kind === 'chat_completion_chunk') notes.push('one chunk on its own, not a stream');
    models.push(...modelsOf(kind, parsed.value));
    violations.push(...validator(parsed.value).map(atOwnPath), ...meaningViolations(spec, kind, parsed.value));
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
  notes.push(...modelNotes(spec, [...new Set(models)], options.modelMap ?? {}));
  return { kind, items: 1, violations, notes };
}

/**
 * Judges a stream of chat_completion_chunk payloads as it is fed, piece by piece (pieces may cut an
 * event anywhere): each payload is parsed and judged when it completes, then dropped. What it keeps
 * is the violations found, the distinct model ids and the splitter's counts, so a valid stream is
 * judged in memory that does not grow with its length.
 */
export class StreamJudge {
  readonly #spec: Spec;
  readonly #options: JudgeCaptureOptions;
  readonly #splitter: StreamSplitter;
  readonly #violations: CaptureViolation[] = [];
  readonly #models = new Set<string>();

  constructor(spec: Spec, framing: 'sse' | 'lines', options: JudgeCaptureOptions = {}) {
    this.#spec = spec;
    this.#options = options;
    const validator = validatorFor(spec, 'chat_completion_chunk', { profile: options.profile ?? 'default' });
    this.#splitter = new StreamSplitter(framing, {
      onPayload: (payload, item) => {
        if (!payload.ok) {
          this.#violations.push({
            item,
            path: '',
            message: `payload is not JSON (${payload.error}): ${JSON.stringify(payload.text.slice(0, 60))}`,
            level: 'must',
            specRef: 'streaming.framing',
            keyword: 'json',
            params: { error: payload.error },
          });
          return;
        }
        const model = modelOfChunk(payload.value);
        if (model !== undefined) this.#models.add(model);
        const found = [...validator(payload.value).map(atOwnPath), ...meaningViolations(spec, 'chat_completion_chunk', payload.value)];
        for (const v of found) this.#violations.push({ ...v, item });
      },
    });
  }

  feed(text: string): void {
    this.#splitter.feed(text);
  }

  end(): CaptureVerdict {
    const stream = this.#splitter.end();
    const violations: CaptureViolation[] = [];
    // The terminator is a must of streaming.yaml. A capture with SSE framing that lacks it breaks
    // it; a line-per-chunk capture recorded no framing, so there its absence says nothing.
    // An unclosed final `data: [DONE]` (the last blank line lost, as in pasted captures) is taken as
    // the terminator: clients that flush at the end of the body read it; the note says so.
    const unclosedDone = stream.unterminatedTail?.trim() === 'data: [DONE]';
    if (stream.framing === 'sse' && stream.done !== true && !unclosedDone) {
      violations.push({ path: '', message: 'the stream ends without `data: [DONE]`', level: 'must', specRef: 'streaming.events.terminator', keyword: 'terminator', params: {} });
    }
    // A stream of no chunk holds none of the chunks the events table says every stream carries.
    if (stream.payloads === 0) {
      violations.push({ path: '', message: 'the stream carries no chunk: no first chunk with the role, no final chunk with finish_reason', level: 'must', specRef: 'streaming.events.first_chunk', keyword: 'events', params: {} });
    }
    if (stream.eventsAfterDone > 0) {
      violations.push({ path: '', message: `${stream.eventsAfterDone} event(s) after \`data: [DONE]\``, level: 'must', specRef: 'streaming.rules.stream.done-last', keyword: 'terminator', params: {} });
    }
    violations.push(...this.#violations);
    const notes = [...streamNotes(stream), ...modelNotes(this.#spec, [...this.#models], this.#options.modelMap ?? {})];
    return { kind: 'chat_completion_chunk', items: stream.payloads, violations, notes };
  }
}

/**
 * Judges a stream of chunks as its bytes arrive (a response body, a file read in pieces), in memory
 * that does not grow with a valid stream's length. The framing is told from the first line that is
 * neither blank nor a comment: an SSE field (`data:`, `event:`, `id:`, `retry:`) makes it SSE, anything
 * else one chunk JSON per line. Leading blank lines are skipped and noted, as `judgeCapture` does.
 */
export async function judgeStream(spec: Spec, source: AsyncIterable<Uint8Array | string>, options: JudgeCaptureOptions = {}): Promise<CaptureVerdict> {
  const decoder = new TextDecoder('utf-8');
  let judge: StreamJudge | undefined;
  let leadingNotes: string[] = [];
  let pending = '';
  const start = (framing: 'sse' | 'lines'): StreamJudge => {
    const { notes, body } = skipLeadingBlankLines(pending);
    leadingNotes = notes;
    const j = new StreamJudge(spec, framing, options);
    j.feed(body);
    pending = '';
    return j;
  };
  for await (const piece of source) {
    const text = typeof piece === 'string' ? piece : decoder.decode(piece, { stream: true });
    if (judge !== undefined) {
      judge.feed(text);
      continue;
    }
    pending += text;
    const framing = framingOf(pending);
    if (framing !== undefined) judge = start(framing);
  }
  const rest = decoder.decode();
  if (judge === undefined) {
    pending += rest;
    judge = start(framingOf(`${pending}\n`) ?? 'sse');
  } else judge.feed(rest);
  const verdict = judge.end();
  return { ...verdict, notes: [...leadingNotes, ...verdict.notes] };
}

/** The framing its first complete line that is neither blank nor a comment shows; undefined before one. */
function framingOf(text: string): 'sse' | 'lines' | undefined {
  const lines = text.split(/\r\n|\n|\r/);
  lines.pop(); // not complete until a line end follows it
  const first = lines.find((l) => l.trim() !== '' && !l.startsWith(':'));
  if (first === undefined) return undefined;
  return /^(?:data|event|id|retry):/.test(first) ? 'sse' : 'lines';
}

function skipLeadingBlankLines(text: string): { notes: string[]; body: string } {
  const leading = /^\s*/.exec(text)?.[0] ?? '';
  const blankLines = (leading.match(/\r\n|\n|\r/g) ?? []).length;
  return { notes: blankLines > 0 ? [`${blankLines} blank line(s) before the body (keep-alive), skipped`] : [], body: text.slice(leading.length) };
}

/**
 * What the body's meanings break (meanings.yaml): the usage sums of a completion or of a chunk that
 * carries usage, as the usage checks of a run judge them (one arithmetic: derive/meanings/sums.ts).
 */
function meaningViolations(spec: Spec, kind: Kind, body: unknown): Violation[] {
  if (kind !== 'chat_completion' && kind !== 'chat_completion_chunk') return [];
  const usage = isRecord(body) ? body.usage : undefined;
  return isRecord(usage) ? sumViolations(spec, 'usage', usage, '/usage') : [];
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

function streamNotes(s: StreamSummary): string[] {
  const notes: string[] = [];
  if (s.framing === 'lines') notes.push('one chunk JSON per line: no SSE framing recorded (no `data: ` prefixes)');
  if (s.comments > 0) {
    const kinds = s.commentKinds.map((c) => JSON.stringify(c)).join(', ');
    notes.push(`${s.comments} comment line(s) (${kinds}), skipped as a client skips them`);
  }
  if (s.namedEvents > 0) notes.push(`${s.namedEvents} event(s) carry an \`event:\` name (${s.eventNames.join(', ')}); the description shows none`);
  if (s.done === true) notes.push('`data: [DONE]` closes the stream');
  else if (s.framing === 'sse') notes.push('no `data: [DONE]` event: the stream ends without its terminator (streaming.framing)');
  else notes.push('no `[DONE]` line (a line-per-chunk capture does not record it)');
  if (s.eventsAfterDone > 0) notes.push(`${s.eventsAfterDone} event(s) after \`data: [DONE]\` (streaming.rules stream.done-last)`);
  if (s.unterminatedTail !== undefined) {
    notes.push(`the body ends with an event never closed by a blank line, which an SSE client discards: ${JSON.stringify(s.unterminatedTail.trim().slice(0, 60))}`);
  }
  if (s.payloads === 0) notes.push('no chunk in the stream');
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

function modelOfChunk(value: unknown): string | undefined {
  const model = typeof value === 'object' && value !== null ? (value as { model?: unknown }).model : undefined;
  return typeof model === 'string' ? model : undefined;
}

function modelNotes(spec: Spec, models: readonly string[], map: Readonly<Record<string, string>>): string[] {
  return models.map((id) => {
    const mapped = Object.hasOwn(map, id) ? map[id]! : undefined;
    if (mapped !== undefined) {
      return Object.hasOwn(spec.models, mapped) ? `model ${id} is the spec's ${mapped} (--model-map)` : `model ${id} is mapped to ${mapped}, which is not a spec model id`;
    }
    return Object.hasOwn(spec.models, id) ? `model ${id} is a spec model id` : `model ${id} is not a spec model id (map it with --model-map ${id}=SPEC_ID)`;
  });
}
