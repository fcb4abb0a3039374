import { describe, expect, test } from 'vitest';
import { marked, markerOf, newMarker, unmarked } from './marker.ts';

describe('the marker that pairs a client request with its upstream requests', () => {
  const marker = newMarker();

  test.each([
    ['a chat request', { model: 'm', messages: [{ role: 'user', content: 'Say hello.' }, { role: 'user', content: 'Again.' }] }],
    ['content as text parts', { model: 'm', messages: [{ role: 'user', content: [{ type: 'text', text: 'Say hello.' }] }] }],
    ['a fill-in-the-middle prompt', { model: 'm', prompt: 'def add(a, b):\n', suffix: '\n' }],
  ])('%s: written before the first text, read back, taken out again', (_name, body) => {
    const sent = marked(body, marker)!;
    expect(markerOf(sent)).toBe(marker);
    expect(JSON.stringify(sent)).toContain(`[svc-mark-${marker}] `);
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

  test('markers differ from one request to the next', () => {
    expect(new Set(Array.from({ length: 50 }, newMarker)).size).toBe(50);
    expect(newMarker()).toMatch(/^[0-9a-f]{12}$/);
  });
});
