import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { DEFAULT_SPEC_DIR, loadSpec } from '#harness/spec/load.ts';
import { answerObjects, emptyPlaces, placeName, type Place } from '#harness/testing/emptyPlaces.ts';
import { walkEmptiness, type WalkResult } from '#harness/testing/emptinessWalk.ts';
import { tempDirs } from '#harness/testing/tempDirs.ts';

/**
 * The mirror of the fault walk (faultWalk.test.ts: every check can fail): every place the spec
 * needs filled in an answer, read from the derived schemas and the spec's stream rules, taken away
 * (removed, nulled, emptied) from the embedded emulator's answers by a mutating proxy, fails a must
 * check that judges that place's spec entry. One run per place, `--only` those checks.
 */
const { spec } = loadSpec();
const NOW = '2026-06-01T00:00:00Z';
const places = emptyPlaces(spec);
const tmp = tempDirs('svc-emptiness-spec-');
const at = (p: Place) => `${p.object} /${p.path.join('/')} ${p.mutation}`;

let results: WalkResult[];
beforeAll(async () => {
  results = await walkEmptiness({ spec, places, now: NOW });
}, 180_000);

describe('the places', () => {
  test('come from every answer object the spec states something of at must', () => {
    const walked = new Set(places.map((p) => p.object));
    // The model list's container is not shown ({object, data} is advisory), so nothing in it is a must place.
    const advisory = answerObjects(spec).filter((o) => Object.values(spec.objects[o]!.fields).every((f) => f.strength === 'unspecified' || f.required === 'unspecified'));
    expect(advisory).toEqual(['model_list']);
    expect([...walked].sort()).toEqual(answerObjects(spec).filter((o) => !advisory.includes(o)).sort());
  });

  test('hold each non-empty rule the spec entails, and the stream rule over every chunk', () => {
    const names = places.map(at);
    for (const p of ['chat_completion /choices emptied', 'fim_completion /choices emptied', 'messages_response /content emptied', 'chat_completion /choices/*/message/tool_calls emptied', 'chat_completion_chunk /choices emptied', 'chat_completion /choices/*/message nulled', 'chat_completion /choices/*/message/content removed']) expect(names).toContain(p);
    // `content` may be null (advisory): nulling it is no must place.
    expect(names).not.toContain('chat_completion /choices/*/message/content nulled');
  });
});

describe('the emptiness walk', () => {
  test('every place is taken away from some answer of the emulator', () => {
    expect(results.filter((r) => r.changed === 0).map((r) => `${r.name} (ran ${r.checks.join(', ') || 'no check'})`)).toEqual([]);
  });

  test('every place taken away fails a must check judging it', () => {
    expect(results.filter((r) => r.caught.length === 0).map((r) => `${r.name}: no must failure among ${r.checks.join(', ') || 'no check'}`)).toEqual([]);
  });

  test('the non-empty rules are caught where they are judged: the schema checks and the stream check', () => {
    const caught = (name: string) => results.find((r) => at(r.place) === name)?.caught ?? [];
    expect(caught('chat_completion /choices emptied')).toContain('schema.chat-completion.matches-schema');
    expect(caught('chat_completion /choices/*/message/tool_calls emptied')).toContain('schema.chat-completion.matches-schema');
    expect(caught('fim_completion /choices emptied')).toContain('schema.fim-completion.matches-schema');
    expect(caught('messages_response /content emptied')).toContain('schema.messages-response.matches-schema');
    expect(caught('chat_completion_chunk /choices emptied')).toEqual(['stream.chunks.carry-a-choice']);
  });
});

describe('fails when a derived non-empty rule is taken out', () => {
  test('judged by a spec without `choices` min_items, `/choices` emptied is caught by no must check', async () => {
    const dir = tmp();
    cpSync(DEFAULT_SPEC_DIR, dir, { recursive: true });
    const file = join(dir, 'objects.yaml');
    const text = readFileSync(file, 'utf8');
    const from = text.indexOf('        items: { ref: choice }\n') + '        items: { ref: choice }\n'.length;
    const to = text.indexOf('        source: Chat completion response object, row choices\n', from);
    expect(text.slice(from, to)).toMatch(/^ {8}min_items:\n {10}count: 1\n/);
    writeFileSync(file, text.slice(0, from) + text.slice(to));
    const place = places.find((p) => at(p) === 'chat_completion /choices emptied')!;
    const [r] = await walkEmptiness({ spec, places: [place], judgeWith: dir, now: NOW });
    expect(r!.changed).toBeGreaterThan(0);
    expect(r!.checks).toContain('schema.chat-completion.matches-schema');
    expect({ place: placeName(place), caught: r!.caught }).toEqual({ place: 'chat_completion /choices emptied', caught: [] });
  }, 60_000);
});
