import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GrowableCodes } from '../growable.js';

/**
 * A reader's column codes grow one by one in their narrowest width, widened when a larger code
 * arrives. Its count of one code (the table's count of missing values) is read in that width: it
 * must be the count of the codes as they come out of toArray, whatever widths they passed through.
 */
describe('growable codes', () => {
  it('count a code as the Uint32 column they make counts it, across widenings', () => {
    const code = fc.oneof(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: 70_000 }));
    fc.assert(
      fc.property(fc.array(code, { maxLength: 3000 }), fc.integer({ min: 0, max: 3 }), (codes, asked) => {
        const growable = new GrowableCodes(16);
        for (const c of codes) growable.push(c);
        const column = growable.toArray();
        expect([...column]).toEqual(codes);
        expect(growable.countOf(asked)).toBe(column.filter((c) => c === asked).length);
      }),
      { seed: 2911, numRuns: 300 },
    );
  });
});
