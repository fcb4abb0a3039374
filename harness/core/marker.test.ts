import { describe, expect, test } from 'vitest';
import { marked, markerFor, markerOf, unmarked } from './marker.ts';

describe('the marker that pairs a client request with its upstream requests', () => {
  const marker = markerFor('{}', 0);

  test.each([
    ['a chat request', { model: 'm', messages: [{ role: 'user', content: 'Say hello.' }, { role: 'user', content: 'Again.' }] }],
    ['content as text parts', { model: 'm', messages: [{ role: 'user', content: [{ type: 'text', text: 'Say hello.' }] }] }],
    ['a fill-in-the-middle prompt', { model: 'm', prompt: 'def add(a, b):\n', suffix: '\n' }],
  ])('%s: written into the text, read back, taken out again', (_name, body) => {
    const sent = marked(body, marker)!;
    expect(markerOf(sent)).toBe(marker);
    expect(JSON.stringify(sent)).toContain(`[svc-mark-${marker}]`);
    expect(unmarked(sent)).toEqual(body);
    // The caller's body is left as it was.
    expect(markerOf(body)).toBeUndefined();
  });

  test('a body with no text to carry it is not marked, and nothing is read from one', () => {
    expect(marked({ model: 'm', messages: [] }, marker)).toBeUndefined();
    expect(marked([1, 2], marker)).toBeUndefined();
    expect(markerOf({ messages: [{ role: 'user', content: 'no marker here' }] })).toBeUndefined();
    expect(markerOf('text')).toBeUndefined();
  });

  test('the last message carries it, so every prompt prefix stays as it was (the cache); a FIM prompt starts with it', () => {
    const sent = marked({ messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Say hello.' }] }, marker)!;
    expect(sent.messages[0]!.content).toBe('Be brief.');
    expect(sent.messages[1]!.content).toBe(`Say hello. [svc-mark-${marker}]`);
    expect(marked({ prompt: 'def f():' }, marker)!.prompt).toBe(`[svc-mark-${marker}] def f():`);
  });

  test('found wherever a gateway put the text: after a system message of its own', () => {
    const sent = marked({ messages: [{ role: 'user', content: 'Say hello.' }] }, marker)!;
    const upstream = { messages: [{ role: 'system', content: 'gateway policy' }, ...sent.messages] };
    expect(markerOf(upstream)).toBe(marker);
    expect(unmarked(upstream).messages[1]!.content).toBe('Say hello.');
  });

  test('the same body sent again gets a marker of its own, and the same in another run', () => {
    expect(markerFor('{"a":1}', 0)).toBe(markerFor('{"a":1}', 0));
    expect(markerFor('{"a":1}', 0)).not.toBe(markerFor('{"a":1}', 1));
    expect(markerFor('{"a":1}', 0)).toMatch(/^[0-9a-f]{12}$/);
  });

  test('markers differ from one request to the next', () => {
    expect(new Set(Array.from({ length: 50 }, (_, i) => markerFor('{"a":1}', i))).size).toBe(50);
    expect(new Set(Array.from({ length: 50 }, (_, i) => markerFor(`{"a":${i}}`, 0))).size).toBe(50);
  });
});
