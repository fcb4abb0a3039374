import { describe, expect, test } from 'vitest';
import { loadSpec } from '#harness/spec/load.ts';
import { featuresOf, leftOutByCheck, leftOutByRequest } from './features.ts';

const { spec } = loadSpec();

describe('--without knows every optional feature the spec describes', () => {
  test('the routes\' features (bases.yaml) and the main operation\'s (features.yaml)', () => {
    expect(featuresOf(spec)).toEqual(['chat', 'models', 'balance', 'fim', 'prefix_completion', 'messages', 'streaming', 'tools', 'json_output', 'thinking', 'caching']);
  });

  test('a request needs a feature when it sets one of its fields to anything but false or null', () => {
    expect(leftOutByRequest(spec, ['thinking'], { model: 'm', thinking: { type: 'disabled' } })).toBe('thinking');
    expect(leftOutByRequest(spec, ['thinking'], { model: 'm', reasoning_effort: 'none' })).toBe('thinking');
    expect(leftOutByRequest(spec, ['streaming'], { model: 'm', stream: false })).toBeUndefined();
    expect(leftOutByRequest(spec, ['streaming', 'tools'], { model: 'm', stream: true })).toBe('streaming');
    expect(leftOutByRequest(spec, ['tools'], { model: 'm', messages: [] })).toBeUndefined();
  });

  test('a check needs a feature when it judges one of its spec entries', () => {
    expect(leftOutByCheck(spec, ['caching'], ['context_caching.min_tokens'])).toBe('caching');
    expect(leftOutByCheck(spec, ['caching'], ['objects.usage'])).toBeUndefined();
  });
});
