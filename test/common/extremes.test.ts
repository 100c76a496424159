import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maxOf, minOf, sumOf } from '../../src/common/extremes.js';

describe('maxOf and minOf', () => {
  it('agree with Math.max and Math.min on arrays, typed arrays and iterables (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.double()), (values) => {
        expect(Object.is(maxOf(values), Math.max(...values))).toBe(true);
        expect(Object.is(minOf(values), Math.min(...values))).toBe(true);
        expect(Object.is(maxOf(new Set(values).values()), Math.max(...new Set(values)))).toBe(true);
        expect(Object.is(minOf(Float64Array.from(values)), Math.min(...values))).toBe(true);
      }),
    );
    for (const zeros of [[-0, 0], [0, -0]]) {
      expect(Object.is(maxOf(zeros), 0)).toBe(true);
      expect(Object.is(minOf(zeros), -0)).toBe(true);
    }
    expect(maxOf([])).toBe(-Infinity);
    expect(Number.isNaN(minOf([1, Number.NaN, 0]))).toBe(true);
  });

  it('take a million values, where spreading them as arguments overflows the stack', () => {
    const classes = new Map(Array.from({ length: 1_000_000 }, (_, i) => [i, 5 + (i % 7)]));
    expect(() => Math.min(...classes.values())).toThrow(RangeError);
    expect(minOf(classes.values())).toBe(5);
    expect(maxOf(new Uint32Array(1_000_000).fill(3))).toBe(3);
  });
});

describe('sumOf', () => {
  it('equals a reduce over arrays and typed arrays (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 1_000_000 })), (values) => {
        const expected = values.reduce((a, b) => a + b, 0);
        expect(sumOf(values)).toBe(expected);
        expect(sumOf(Uint32Array.from(values))).toBe(expected);
      }),
    );
  });
});
