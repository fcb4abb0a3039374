import { expect, test } from 'vitest';
import { memoPer } from './memoPer.ts';

test('makes a value once per owner and key, and each owner its own', () => {
  const memo = memoPer<object, { made: number }>();
  let made = 0;
  const make = () => ({ made: ++made });
  const a = {};
  const b = {};
  const first = memo(a, 'k', make);
  expect(memo(a, 'k', make)).toBe(first);
  expect(memo(a, 'other', make)).not.toBe(first);
  expect(memo(b, 'k', make)).not.toBe(first);
  expect(made).toBe(3);
  // A value that is undefined is made once too.
  const none = memoPer<object, undefined>();
  let asked = 0;
  none(a, 'k', () => void asked++);
  none(a, 'k', () => void asked++);
  expect(asked).toBe(1);
});
