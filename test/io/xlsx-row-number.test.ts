import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RowNumber } from '../../src/io/output/xlsx-writer.js';

const text = (bytes: Uint8Array): string => Buffer.from(bytes).toString('latin1');

describe("the workbook's row numbers, counted up in their digits", () => {
  it('spells first + k after k steps, across every carry', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2_000_000 }), fc.integer({ min: 0, max: 1_200 }), (first, steps) => {
        const number = new RowNumber(first);
        for (let k = 0; k < steps; k++) number.next();
        expect(text(number.digits)).toBe(String(first + steps));
      }),
      { seed: 39, numRuns: 200 },
    );
  });

  it('gains a digit at each power of ten', () => {
    const number = new RowNumber(9);
    number.next();
    expect(text(number.digits)).toBe('10');
    const big = new RowNumber(999_999);
    big.next();
    expect(text(big.digits)).toBe('1000000');
  });
});
