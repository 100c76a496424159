import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pairCounts } from '../../utility/analysis.js';
import { coveringColumn } from '../released-records.js';

/** Rows of (input code, released code) pairs, codes below the given counts. */
const rows = (truthCodes: number, releasedCodes: number) =>
  fc.array(fc.tuple(fc.nat(truthCodes - 1), fc.nat(releasedCodes - 1)), { maxLength: 60 }).map((pairs) => ({
    truth: Uint32Array.from(pairs, ([x]) => x),
    released: Uint32Array.from(pairs, ([, c]) => c),
  }));

/** What a released code covers by the definition: the input values (missing aside) of the rows released with it, first met first. */
function coveringByDefinition(truth: Uint32Array, released: Uint32Array, truthCodes: number): number[][] {
  const covering: number[][] = Array.from({ length: truthCodes }, () => []);
  truth.forEach((x, r) => {
    if (x !== 0 && !covering[x]!.includes(released[r]!)) covering[x]!.push(released[r]!);
  });
  return covering;
}

describe('the pairs met, counted in a byte array or in a set', () => {
  it('coveringColumn gives the same support and weights either way, and the definition\'s', () => {
    fc.assert(
      fc.property(rows(6, 5), ({ truth, released }) => {
        const dense = coveringColumn(truth, released, 6, 5, released);
        const sparse = coveringColumn(truth, released, 6, 5, released, 0);
        const expected = coveringByDefinition(truth, released, 6);
        for (let x = 1; x < 6; x++) {
          expect(dense.support(x)).toEqual(expected[x]);
          expect(sparse.support(x)).toEqual(expected[x]);
          const shared = (c: number) => expected.filter((cs) => cs.includes(c)).length;
          expect([...dense.weights(x)]).toEqual(Array.from({ length: 5 }, (_, c) => (expected[x]!.includes(c) ? 1 / shared(c) : 0)));
          expect([...sparse.weights(x)]).toEqual([...dense.weights(x)]);
        }
      }),
      { seed: 37, numRuns: 300 },
    );
  });

  it('a column released as collected (the input\'s own codes array) covers what a copy of it covers', () => {
    fc.assert(
      fc.property(rows(7, 1), ({ truth }) => {
        const same = coveringColumn(truth, truth, 7, 7, truth);
        const copy = coveringColumn(truth, truth.slice(), 7, 7, truth);
        for (let x = 0; x < 7; x++) {
          expect(same.support(x)).toEqual(copy.support(x));
          expect([...same.weights(x)]).toEqual([...copy.weights(x)]);
        }
      }),
      { seed: 39, numRuns: 300 },
    );
  });

  it('pairCounts counts each pair and lists the pairs in the order they are first met, either way', () => {
    fc.assert(
      fc.property(rows(4, 7), ({ truth: a, released: b }) => {
        const expected = new Map<number, number>();
        a.forEach((x, r) => expected.set(x * 7 + b[r]!, (expected.get(x * 7 + b[r]!) ?? 0) + 1));
        expect([...pairCounts(a, b, 7, 28)]).toEqual([...expected]);
        expect([...pairCounts(a, b, 7, 28, 0)]).toEqual([...expected]);
      }),
      { seed: 38, numRuns: 300 },
    );
  });
});
