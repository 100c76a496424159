import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shuffleInPlace } from '../draws.js';
import { PILE_ABOVE, shuffleInPiles, shuffleTogether } from '../shuffle.js';
import { SeededTestRandomSource } from '../source.js';
import { chiSquare, chiSquareCritical } from '../../../../test/stats.js';

const identity = (n: number): Uint32Array => Uint32Array.from({ length: n }, (_, i) => i);

/** How often each arrangement of 5 elements comes out of `shuffle` in `trials` shuffles (index: the arrangement in base 5). */
function arrangementCounts(shuffle: (values: Uint32Array) => void, trials: number): number[] {
  const seen = new Map<number, number>();
  for (let t = 0; t < trials; t++) {
    const values = identity(5);
    shuffle(values);
    const key = values.reduce((k, v) => k * 5 + v, 0);
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  return [...seen.values()];
}

describe('shuffles of many rows in piles (Rao–Sandelius)', () => {
  it('give every arrangement of 5 elements the same frequency, with 2, 4, 8 and 4096 piles', () => {
    // With 4096 piles a word holds two choices and 8 bits to spare: a third choice from them would favour the first piles.
    for (const bits of [1, 2, 3, 12]) {
      // Fewer of the largest: each allocates its 4096 piles' starts.
      const trials = bits === 12 ? 24_000 : 60_000;
      const source = new SeededTestRandomSource(40 + bits);
      const counts = arrangementCounts((values) => shuffleInPiles(source, [values], bits), trials);
      // Every one of the 120 arrangements comes out, each about trials/120 times.
      expect(counts.length).toBe(120);
      expect(chiSquare(counts, new Array(120).fill(trials / 120))).toBeLessThan(chiSquareCritical(119));
    }
  });

  it('move every element to every part of a large array alike (origin block × final block, 2^18 elements)', () => {
    const n = 1 << 18;
    const blocks = 16;
    const values = identity(n);
    shuffleTogether(new SeededTestRandomSource(7), [values]);
    const counts = new Array<number>(blocks * blocks).fill(0);
    const size = n / blocks;
    values.forEach((origin, at) => counts[Math.floor(origin / size) * blocks + Math.floor(at / size)]!++);
    expect(chiSquare(counts, new Array(blocks * blocks).fill(n / (blocks * blocks)))).toBeLessThan(chiSquareCritical(blocks * blocks - 1));
  });

  it('keep the arrays a permutation, moved together', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 3000 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 3 }), fc.integer(), (n, bits, arrays, seed) => {
        const rows = identity(n);
        const others = Array.from({ length: arrays - 1 }, (_, k) => Uint32Array.from(rows, (r) => r * 7 + k));
        shuffleInPiles(new SeededTestRandomSource(seed), [rows, ...others], bits);
        expect([...rows].sort((a, b) => a - b)).toEqual([...identity(n)]);
        others.forEach((other, k) => expect(other).toEqual(Uint32Array.from(rows, (r) => r * 7 + k)));
      }),
      { seed: 5, numRuns: 150 },
    );
  });

  it('are plain Fisher–Yates up to PILE_ABOVE elements: the same draws as shuffleInPlace', () => {
    for (const n of [0, 1, 2, 1000, PILE_ABOVE]) {
      const a = identity(n);
      const b = identity(n);
      shuffleTogether(new SeededTestRandomSource(3), [a]);
      shuffleInPlace(new SeededTestRandomSource(3), b);
      expect(a).toEqual(b);
    }
  });

  it('refuse arrays of different lengths and pile counts out of range', () => {
    const source = new SeededTestRandomSource(1);
    expect(() => shuffleTogether(source, [identity(3), identity(4)])).toThrow(RangeError);
    expect(() => shuffleInPiles(source, [identity(3)], 0)).toThrow(RangeError);
    expect(() => shuffleInPiles(source, [identity(3)], 13)).toThrow(RangeError);
  });
});
