import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exactBernoulli, randomPermutation, uniformBigInt, uniformInt, uniformIntSampler, uniformUnit } from '../draws.js';
import { CryptoRandomSource, SeededTestRandomSource } from '../source.js';
import { rational } from '../../exact/rational.js';
import { chiSquare, chiSquareCritical } from '../../../../test/stats.js';

describe('random sources', () => {
  it('the production source is the CSPRNG and is not deterministic', () => {
    const source = new CryptoRandomSource();
    expect(source.deterministic).toBe(false);
    const values = new Set(Array.from({ length: 100 }, () => source.nextUint32()));
    expect(values.size).toBeGreaterThan(95);
  });

  it('the test source is reproducible for a seed and differs across seeds', () => {
    const a = new SeededTestRandomSource(7);
    const b = new SeededTestRandomSource(7);
    const c = new SeededTestRandomSource(8);
    const seqA = Array.from({ length: 20 }, () => a.nextUint32());
    expect(Array.from({ length: 20 }, () => b.nextUint32())).toEqual(seqA);
    expect(Array.from({ length: 20 }, () => c.nextUint32())).not.toEqual(seqA);
  });
});

describe('uniform integers and exact Bernoulli draws', () => {
  it('uniformInt stays in range for any bound', () => {
    const source = new SeededTestRandomSource(1);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 32 }), (n) => {
        const v = uniformInt(source, n);
        return Number.isInteger(v) && v >= 0 && v < n;
      }),
    );
  });

  it('uniformInt rejects exactly the words at or above the largest multiple of n (brute-force limit)', () => {
    // A source of given words: the draw must take the first word below 2^32 − (2^32 mod n).
    const words = (list: number[]) => ({ deterministic: true, nextUint32: () => list.shift()! });
    for (const n of [2, 3, 7, 1000, 2 ** 31 + 1, 3 * 2 ** 30, 2 ** 32 - 1, 2 ** 32]) {
      const limit = Number((1n << 32n) - ((1n << 32n) % BigInt(n)));
      if (limit < 2 ** 32) expect(uniformInt(words([limit, limit - 1]), n)).toBe((limit - 1) % n);
      expect(uniformInt(words([limit - 1]), n)).toBe((limit - 1) % n);
      expect(uniformInt(words([0]), n)).toBe(0);
    }
  });

  it('uniformInt takes the exact remainder of an accepted word and the exact limit, against BigInt arithmetic', () => {
    // The remainders are computed in doubles (x − ⌊x/n⌋·n): any word, any bound, including words
    // and bounds past 2^31 and quotients just short of an integer.
    const words = (list: number[]) => ({ deterministic: true, nextUint32: () => list.shift()! });
    const word = fc.oneof(fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.integer({ min: 2 ** 32 - 4096, max: 2 ** 32 - 1 }));
    const bound = fc.oneof(fc.integer({ min: 1, max: 2 ** 32 }), fc.integer({ min: 2 ** 31 - 4, max: 2 ** 31 + 4 }), fc.integer({ min: 2 ** 32 - 4096, max: 2 ** 32 }));
    fc.assert(
      fc.property(word, bound, (u, n) => {
        const limit = (1n << 32n) - ((1n << 32n) % BigInt(n));
        if (BigInt(u) >= limit) {
          // Rejected: the next word (0) is taken instead.
          return uniformInt(words([u, 0]), n) === 0;
        }
        return uniformInt(words([u]), n) === Number(BigInt(u) % BigInt(n));
      }),
      { numRuns: 20_000 },
    );
  });

  it('uniformIntSampler(n) draws what uniformInt(·, n) draws from the same words, rejections included', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: 1, max: 2 ** 32 }), fc.integer({ min: 1, max: 20 })), fc.array(fc.integer({ min: 0, max: 2 ** 32 - 1 }), { minLength: 40, maxLength: 40 }), (n, list) => {
        const a = { deterministic: true, nextUint32: ((words) => () => words.shift() ?? 0)([...list]) };
        const b = { deterministic: true, nextUint32: ((words) => () => words.shift() ?? 0)([...list]) };
        const sample = uniformIntSampler(n);
        for (let i = 0; i < 10; i++) expect(sample(b)).toBe(uniformInt(a, n));
      }),
      { numRuns: 2000 },
    );
    expect(() => uniformIntSampler(0)).toThrow(RangeError);
    expect(() => uniformIntSampler(2 ** 32 + 1)).toThrow(RangeError);
  });

  it('uniformInt(7) fits the uniform distribution (χ², 0.1%)', () => {
    const source = new SeededTestRandomSource(42);
    const counts = new Array(7).fill(0);
    const draws = 70_000;
    for (let i = 0; i < draws; i++) counts[uniformInt(source, 7)]++;
    expect(chiSquare(counts, new Array(7).fill(draws / 7))).toBeLessThan(chiSquareCritical(6));
  });

  it('a bound that is not a power of two shows no modulo bias: 3·2^30', () => {
    const source = new SeededTestRandomSource(3);
    const n = 3 * 2 ** 30;
    const thirds = [0, 0, 0];
    for (let i = 0; i < 60_000; i++) thirds[Math.floor(uniformInt(source, n) / 2 ** 30)]!++;
    expect(chiSquare(thirds, [20_000, 20_000, 20_000])).toBeLessThan(chiSquareCritical(2));
  });

  it('exact Bernoulli(3/7) matches its probability (χ², 0.1%)', () => {
    const source = new SeededTestRandomSource(5);
    const coin = exactBernoulli(rational(3n, 7n));
    let heads = 0;
    const draws = 100_000;
    for (let i = 0; i < draws; i++) if (coin.draw(source)) heads++;
    const expected = [(draws * 3) / 7, (draws * 4) / 7];
    expect(chiSquare([heads, draws - heads], expected)).toBeLessThan(chiSquareCritical(1));
  });

  it('exact Bernoulli handles denominators beyond 2^32 and the endpoints', () => {
    const source = new SeededTestRandomSource(9);
    const big = exactBernoulli(rational(10n ** 12n, 3n * 10n ** 12n));
    let heads = 0;
    for (let i = 0; i < 30_000; i++) if (big.draw(source)) heads++;
    expect(chiSquare([heads, 30_000 - heads], [10_000, 20_000])).toBeLessThan(chiSquareCritical(1));
    expect(exactBernoulli(rational(0n)).draw(source)).toBe(false);
    expect(exactBernoulli(rational(1n)).draw(source)).toBe(true);
    expect(uniformBigInt(source, 1n)).toBe(0n);
  });

  it('uniformUnit lies in [0,1) and a permutation is a permutation', () => {
    const source = new SeededTestRandomSource(11);
    for (let i = 0; i < 1000; i++) {
      const u = uniformUnit(source);
      expect(u >= 0 && u < 1).toBe(true);
    }
    const perm = randomPermutation(source, 1000);
    expect([...perm].sort((a, b) => a - b)).toEqual(Array.from({ length: 1000 }, (_, i) => i));
  });
});
