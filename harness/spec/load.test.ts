import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { SpecInvalidError, type SpecIssue } from '#harness/core/errors/index.ts';
import { DEFAULT_SPEC_DIR, loadSpec } from '#harness/spec/load.ts';

/**
 * The loader on broken inputs. Each case copies the real spec/ (meta-schema.json included) into a
 * fresh temp dir, breaks one file in one way by editing its text, and checks that SpecInvalidError
 * names the file, the line and column of the broken text, the path and a message.
 */

const tempDirs: string[] = [];
afterAll(() => {
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** A copy of the real spec in a fresh temp dir. */
function copySpec(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-spec-load-'));
  tempDirs.push(dir);
  fs.cpSync(DEFAULT_SPEC_DIR, dir, { recursive: true });
  return dir;
}

interface Broken {
  dir: string;
  /** the edited text of the broken file */
  text: string;
}

/** Copies the spec and rewrites one file with `edit`; the edit must change the text. */
function breakSpec(file: string, edit: (text: string) => string): Broken {
  const dir = copySpec();
  const target = path.join(dir, file);
  const before = fs.readFileSync(target, 'utf8');
  const text = edit(before);
  if (text === before) throw new Error(`the edit did not change ${file}`);
  fs.writeFileSync(target, text);
  return { dir, text };
}

/** Replaces the first `from` found after the one occurrence of `anchor` (both must be there). */
function replaceAfter(text: string, anchor: string, from: string, to: string): string {
  const a = text.indexOf(anchor);
  if (a < 0 || text.indexOf(anchor, a + 1) >= 0) throw new Error(`anchor ${JSON.stringify(anchor)} must occur exactly once`);
  const at = text.indexOf(from, a);
  if (at < 0) throw new Error(`${JSON.stringify(from)} not found after ${JSON.stringify(anchor)}`);
  return text.slice(0, at) + to + text.slice(at + from.length);
}

/** Replaces the one occurrence of `from`. */
function replaceOnce(text: string, from: string, to: string): string {
  return replaceAfter(text, from, from, to);
}

/**
 * 1-based line and column of `needle` in `text`: its one occurrence, or with `after`, its first
 * occurrence after the one occurrence of `after`.
 */
function positionOf(text: string, needle: string, after?: string): { line: number; column: number } {
  let start = 0;
  if (after !== undefined) {
    start = text.indexOf(after);
    if (start < 0 || text.indexOf(after, start + 1) >= 0) throw new Error(`${JSON.stringify(after)} must occur exactly once`);
  }
  const at = text.indexOf(needle, start);
  if (at < 0) throw new Error(`${JSON.stringify(needle)} not found`);
  if (after === undefined && text.indexOf(needle, at + 1) >= 0) throw new Error(`${JSON.stringify(needle)} must occur exactly once`);
  const before = text.slice(0, at).split('\n');
  return { line: before.length, column: before[before.length - 1]!.length + 1 };
}

/** Loads `dir`, expecting SpecInvalidError; returns it. */
function loadFails(dir: string): SpecInvalidError {
  let caught: unknown;
  try {
    loadSpec(dir);
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(SpecInvalidError);
  return caught as SpecInvalidError;
}

/** The issue of `file` (basename) at `pointer`; fails listing every issue when there is none. */
function issueAt(err: SpecInvalidError, file: string, pointer: string): SpecIssue {
  const found = err.issues.find((i) => path.basename(i.file) === file && i.path === pointer);
  if (!found) throw new Error(`no issue for ${file} ${pointer}; issues:\n${err.message}`);
  return found;
}

describe('loadSpec', () => {
  test('loads the real spec without error', () => {
    const loaded = loadSpec();
    expect(Object.keys(loaded.spec.models).length).toBeGreaterThan(0);
    expect(loaded.origins.rules).toBe('rules.yaml');
  });

  test('loads an unedited copy without error', () => {
    expect(() => loadSpec(copySpec())).not.toThrow();
  });

  test('a wrong type: temperature minimum "zero" (objects.yaml)', () => {
    const { dir, text } = breakSpec('objects.yaml', (t) => replaceAfter(t, '      temperature:\n', 'minimum: 0', 'minimum: "zero"'));
    const issue = issueAt(loadFails(dir), 'objects.yaml', '/objects/chat_completion_request/fields/temperature/minimum');
    expect(issue).toMatchObject(positionOf(text, '"zero"'));
    expect(issue.message).toMatch(/must be number/);
  });

  test('an unknown key: `colour` on a model (models.yaml)', () => {
    const { dir, text } = breakSpec('models.yaml', (t) => replaceAfter(t, '  svc-v4-flash:\n', '    kind: current\n', '    kind: current\n    colour: red\n'));
    const issue = issueAt(loadFails(dir), 'models.yaml', '/models/svc-v4-flash/colour');
    expect(issue).toMatchObject(positionOf(text, 'colour: red'));
    expect(issue.message).toContain('unknown key `colour`');
  });

  test('a minimum above its maximum: temperature minimum 3, maximum 2 (objects.yaml)', () => {
    const { dir, text } = breakSpec('objects.yaml', (t) => replaceAfter(t, '      temperature:\n', 'minimum: 0', 'minimum: 3'));
    const issue = issueAt(loadFails(dir), 'objects.yaml', '/objects/chat_completion_request/fields/temperature/minimum');
    const at = positionOf(text, 'minimum: 3', '      temperature:\n');
    expect(issue).toMatchObject({ line: at.line, column: at.column + 'minimum: '.length });
    expect(issue.message).toMatch(/minimum 3 exceeds maximum 2/);
  });

  test('a rule naming a field that does not exist (rules.yaml)', () => {
    const { dir, text } = breakSpec('rules.yaml', (t) => replaceOnce(t, '{ field: temperature, wrong_type: true }', '{ field: no_such_field, wrong_type: true }'));
    // index of the edited rule: rules before it in the file
    const index = (text.slice(0, text.indexOf('no_such_field')).match(/^ {2}- id: /gm) ?? []).length - 1;
    const issue = issueAt(loadFails(dir), 'rules.yaml', `/rules/${index}/when/0/field`);
    expect(issue).toMatchObject(positionOf(text, 'no_such_field'));
    expect(issue.message).toContain('names field `no_such_field`');
  });

  test('a YAML syntax error (errors.yaml)', () => {
    const { dir, text } = breakSpec('errors.yaml', (t) => replaceOnce(t, 'meaning: Bad request\n', 'meaning: Bad request: extra: colons\n'));
    const err = loadFails(dir);
    const syntax = err.issues.filter((i) => path.basename(i.file) === 'errors.yaml' && i.message.startsWith('YAML syntax'));
    expect(syntax.length, err.message).toBeGreaterThan(0);
    expect(syntax[0]).toMatchObject({ ...positionOf(text, 'Bad request: extra'), path: '' });
  });

  test('a file listed in service.yaml is missing (pricing.yaml)', () => {
    const dir = copySpec();
    fs.rmSync(path.join(dir, 'pricing.yaml'));
    const err = loadFails(dir);
    const index = fs.readFileSync(path.join(dir, 'service.yaml'), 'utf8');
    const position = index.split('\n').filter((l) => l.startsWith('  - ')).findIndex((l) => l.includes('pricing.yaml'));
    // The missing file is reported where the index lists it.
    expect(issueAt(err, 'service.yaml', `/files/${position}`)).toMatchObject({
      ...positionOf(index, 'pricing.yaml'),
      message: expect.stringContaining('`pricing.yaml`, which cannot be read (file not found)'),
    });
    // ...and only there: the keys the file would have defined are not reported once more each.
    expect(err.issues).toHaveLength(1);
  });

  test('a comma inside a flow map that splits a value into a stray key is caught (limits.yaml)', () => {
    // `{ source: Limits table row "a, b" }` parses as source `Limits table row "a` plus a key `b"`
    // with a null value; free-form entries refuse null values so this cannot pass silently.
    const { dir } = breakSpec('limits.yaml', (t) => replaceOnce(t, `source: 'Limits table row "temperature"' }`, 'source: Limits table row "tempe, rature" }'));
    expect(loadFails(dir).issues.some((i) => i.file.endsWith('limits.yaml') && i.path.startsWith('/limits/temperature'))).toBe(true);
  });

  test('lifecycle routing that disagrees with models.yaml (lifecycle.yaml)', () => {
    const { dir } = breakSpec('lifecycle.yaml', (t) => replaceOnce(t, 'model: svc-chat, routes_to: { model: svc-v4-flash, mode: non_think }', 'model: svc-chat, routes_to: { model: svc-v4-pro, mode: non_think }'));
    expect(issueAt(loadFails(dir), 'lifecycle.yaml', '/lifecycle/states/0/routes_to').message).toMatch(/disagrees with models\.svc-chat\.routes_to/);
  });

  test('a duplicate rule id (rules.yaml)', () => {
    const ids = (t: string) => [...t.matchAll(/^ {2}- id: (\S+)$/gm)].map((m) => m[1]!);
    let first = '';
    // The second rule takes the first rule's id, quoted so that its text is unique.
    const { dir, text } = breakSpec('rules.yaml', (t) => {
      const [a, b] = ids(t);
      first = a!;
      return replaceOnce(t, `  - id: ${b}\n`, `  - id: "${a}"\n`);
    });
    const issue = issueAt(loadFails(dir), 'rules.yaml', '/rules/1/id');
    expect(issue).toMatchObject(positionOf(text, `"${first}"`));
    expect(issue.message).toContain(`rule id \`${first}\` is already used by rules[0]`);
  });

  test('an unknown model in a lifecycle state (lifecycle.yaml)', () => {
    const { dir, text } = breakSpec('lifecycle.yaml', (t) => replaceOnce(t, '{ id: svc-chat.active, model: svc-chat,', '{ id: svc-chat.active, model: svc-nope,'));
    const issue = issueAt(loadFails(dir), 'lifecycle.yaml', '/lifecycle/states/0/model');
    expect(issue).toMatchObject(positionOf(text, 'svc-nope'));
    expect(issue.message).toContain('unknown model `svc-nope`');
  });

  test('an unknown model in a routes_to (models.yaml)', () => {
    const { dir, text } = breakSpec('models.yaml', (t) => replaceAfter(t, '  svc-chat:\n', 'routes_to: { model: svc-v4-flash', 'routes_to: { model: svc-nope'));
    const issue = issueAt(loadFails(dir), 'models.yaml', '/models/svc-chat/routes_to/model');
    expect(issue).toMatchObject(positionOf(text, 'svc-nope'));
    expect(issue.message).toContain('unknown model `svc-nope`');
  });

  test('a strength without its basis is named at its line (streaming.yaml)', () => {
    const { dir, text } = breakSpec('streaming.yaml', (t) => replaceAfter(t, '    - id: stream.one-id\n', '      basis: stated\n', ''));
    const index = (text.slice(0, text.indexOf('stream.one-id')).match(/^ {4}- id: stream\./gm) ?? []).length;
    const issue = issueAt(loadFails(dir), 'streaming.yaml', `/streaming/rules/${index}/strength`);
    expect(issue.line).toBe(positionOf(text, 'strength: must', '    - id: stream.one-id\n').line);
    expect(issue.message).toMatch(/no `basis` \(stated or entailed\)/);
  });

  test('an unknown model in a behaviour\'s models (conversation.yaml)', () => {
    const { dir, text } = breakSpec('conversation.yaml', (t) => replaceOnce(t, 'models: { ids: [svc-reasoner] }', 'models: { ids: [svc-nope] }'));
    const issue = issueAt(loadFails(dir), 'conversation.yaml', '/conversation/reasoner-reasoning-content-refused/models/ids/0');
    expect(issue).toMatchObject(positionOf(text, 'svc-nope'));
    expect(issue.message).toContain('unknown model `svc-nope`');
  });

  test('`until` on a behaviour naming no model that retires (conversation.yaml)', () => {
    const { dir } = breakSpec('conversation.yaml', (t) => replaceOnce(t, 'models: { ids: [svc-reasoner] }', 'models: { ids: [svc-v4-pro] }'));
    expect(issueAt(loadFails(dir), 'conversation.yaml', '/conversation/reasoner-reasoning-content-refused/until').message).toMatch(/`retires_at` needs models\.ids naming models that have it \(svc-v4-pro do not\)/);
  });

  test('a basis that does not go with its strength is refused (meanings.yaml)', () => {
    const { dir, text } = breakSpec('meanings.yaml', (t) => replaceAfter(t, '  created-is-unix-seconds:\n', '    strength: must\n', '    strength: should\n'));
    const issue = issueAt(loadFails(dir), 'meanings.yaml', '/meanings/created-is-unix-seconds/basis');
    expect(issue.line).toBe(positionOf(text, 'basis:', '  created-is-unix-seconds:\n').line);
    expect(issue.message).toMatch(/basis `entailed` does not go with strength `should`/);
  });

  test('a sum naming a field its object lacks (meanings.yaml)', () => {
    const { dir } = breakSpec('meanings.yaml', (t) => replaceOnce(t, 'parts: [prompt_tokens, completion_tokens]', 'parts: [prompt_tokens, output_tokens]'));
    expect(issueAt(loadFails(dir), 'meanings.yaml', '/meanings/usage-total-is-sum/sum/parts/1').message).toMatch(/names field `output_tokens`, which objects.usage does not have/);
  });

  test('an entailed min_items without its basis (objects.yaml)', () => {
    const { dir, text } = breakSpec('objects.yaml', (t) => replaceAfter(t, '  fim_completion:\n', '          basis: { entailed: "The generated middle segment', '          notes: { entailed: "The generated middle segment'));
    const issue = issueAt(loadFails(dir), 'objects.yaml', '/objects/fim_completion/fields/choices/min_items/notes');
    expect(issue).toMatchObject(positionOf(text, 'notes: { entailed: "The generated'));
    expect(issue.message).toContain('unknown key `notes`');
  });

  test('an implication naming a field its object lacks, or a value its field never takes (objects.yaml)', () => {
    const field = breakSpec('objects.yaml', (t) => replaceOnce(t, 'then: { field: message.tool_calls,', 'then: { field: message.tool_call,'));
    expect(issueAt(loadFails(field.dir), 'objects.yaml', '/objects/choice/implies/0/then/field')).toMatchObject({ ...positionOf(field.text, 'message.tool_call,'), message: expect.stringContaining('names field `message.tool_call`, which is not a field of choice') });
    const value = breakSpec('objects.yaml', (t) => replaceOnce(t, 'if: { field: finish_reason, equals: tool_calls }', 'if: { field: finish_reason, equals: tools }'));
    expect(issueAt(loadFails(value.dir), 'objects.yaml', '/objects/choice/implies/0/if/equals').message).toMatch(/"tools" is not a value `finish_reason` takes \("stop", "length", "tool_calls", "content_filter"\)/);
  });

  test('a stream rule over every chunk naming no array field of the chunk (streaming.yaml)', () => {
    const { dir, text } = breakSpec('streaming.yaml', (t) => replaceOnce(t, 'some_chunk: { non_empty: choices }', 'some_chunk: { non_empty: id }'));
    const index = (text.slice(0, text.indexOf('non_empty: id')).match(/^ {4}- id: stream\./gm) ?? []).length - 1;
    expect(issueAt(loadFails(dir), 'streaming.yaml', `/streaming/rules/${index}/some_chunk/non_empty`)).toMatchObject({ ...positionOf(text, 'id }'), message: expect.stringContaining('names `id`, which is not an array field of the stream chunk object (chat_completion_chunk)') });
  });

  test('the error message shows each issue as file:line:column', () => {
    const { dir, text } = breakSpec('objects.yaml', (t) => replaceAfter(t, '      temperature:\n', 'minimum: 0', 'minimum: "zero"'));
    const err = loadFails(dir);
    const { line, column } = positionOf(text, '"zero"');
    expect(err.message).toContain(`objects.yaml:${line}:${column}`);
    for (const issue of err.issues.filter((i) => i.line > 0)) {
      expect(err.message).toContain(`${issue.file}:${issue.line}:${issue.column}`);
    }
  });
});
