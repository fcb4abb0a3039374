import { createHash } from 'node:crypto';

/** A small seeded generator (mulberry32): the same seed gives the same sequence, everywhere. */
export interface Prng {
  next(): number;
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
}

export function prng(seed: number): Prng {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => items[Math.floor(next() * items.length)]!,
  };
}

/** A seed from the emulator's seed and anything JSON-able (the request), stable across runs. */
export function seedFrom(seed: number, value: unknown): number {
  const digest = createHash('sha256').update(`${seed}:${JSON.stringify(value)}`).digest();
  return digest.readUInt32LE(0);
}
