import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SeededTestRandomSource } from '../../random/source.js';
import { makeColumn } from '../../table/table.js';
import { drawCommonPool, estimatePool, meanRelativeError, type CommonPool } from '../common-pool.js';
import { bucketColumn, coveringColumn, randomizedColumn, textColumn, withheldColumn, type ReleasedColumn, type ReleasedRecords } from '../released-records.js';

/** The estimate by its definition: every record, every attribute's weight multiplied in. */
function bruteForce(pool: CommonPool, released: ReleasedRecords): number[] {
  return pool.queries.map((q) => {
    let total = 0;
    for (let r = 0; r < released.records; r++) {
      let w = 1;
      q.attributes.forEach((a, j) => (w *= released.columns[a]!.weights(q.values[j]!)[released.columns[a]!.codes[r]!]!));
      total += w;
    }
    return released.scale * total;
  });
}

function codes(values: readonly number[]): Uint32Array {
  return Uint32Array.from(values);
}

describe('the common pool', () => {
  it('answers every query exactly from a release that is the input itself', () => {
    const source = new SeededTestRandomSource(7);
    const n = 2000;
    const columns = [4, 9, 3].map((k, j) => {
      const dictionary = ['', ...Array.from({ length: k }, (_, v) => `v${j}-${v}`)];
      return makeColumn(`c${j}`, Uint32Array.from({ length: n }, () => 1 + (source.nextUint32() % k)), dictionary);
    });
    const pool = drawCommonPool(new SeededTestRandomSource(1), columns, n, { size: 300, minSelectivity: 0.001, maxAttempts: 100_000 });
    expect(pool.queries.length).toBe(300);
    const released: ReleasedRecords = { records: n, scale: 1, columns: columns.map((c) => textColumn(c.dictionary, c.dictionary, c.codes)) };
    const estimates = estimatePool(pool, released);
    pool.queries.forEach((q, i) => expect(estimates[i]).toBe(q.answer));
    expect(meanRelativeError(pool, estimates)).toBe(0);
    // The same pool from the same seed: every candidate is asked the same queries.
    expect(drawCommonPool(new SeededTestRandomSource(1), columns, n, { size: 300, minSelectivity: 0.001, maxAttempts: 100_000 })).toEqual(pool);
  });

  it('sums the same as record by record, whichever way a shape is counted', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 400 }), fc.integer({ min: 0, max: 2 ** 31 }), (n, seed) => {
        const source = new SeededTestRandomSource(seed);
        const draw = (k: number) => source.nextUint32() % k;
        const truthCodes = [5, 4, 3, 6, 4].map((k) => Uint32Array.from({ length: n }, () => 1 + draw(k)));
        const dictionaries = [5, 4, 3, 6, 4].map((k, j) => ['', ...Array.from({ length: k }, (_, v) => `${j}:${v}`)]);
        // Column 0 generalized into pairs, 1 randomized, 2 withheld, 3 bucketized, 4 as collected, over a sample of the rows.
        const sampled = Uint32Array.from({ length: Math.max(1, Math.floor(n / 2)) }, () => draw(n));
        const pairs = Uint32Array.from(truthCodes[0]!, (x) => Math.ceil(x / 2));
        const records = sampled.length;
        const buckets = Math.max(1, Math.floor(records / 3));
        const entries = Array.from({ length: buckets * 2 }, (_, e) => ({ bucket: e % buckets, value: `3:${draw(6)}`, count: 1 + draw(3) }));
        const columns: ReleasedColumn[] = [
          coveringColumn(truthCodes[0]!, pairs, 6, 4, Uint32Array.from(sampled, (r) => pairs[r]!)),
          randomizedColumn(dictionaries[1]!, dictionaries[1]!.slice(1), Uint32Array.from({ length: records }, () => draw(4)), 0.6, 4),
          withheldColumn(records, 3),
          bucketColumn(dictionaries[3]!, Uint32Array.from({ length: records }, () => draw(buckets)), buckets, entries),
          textColumn(dictionaries[4]!, dictionaries[4]!, Uint32Array.from(sampled, (r) => truthCodes[4]![r]!)),
        ];
        const released: ReleasedRecords = { records, scale: 2, columns };
        const queries = Array.from({ length: 60 }, () => {
          const attributes = [0, 1, 2, 3, 4].filter(() => draw(2) === 0).slice(0, 3);
          const used = attributes.length ? attributes : [draw(5)];
          return { attributes: used, values: used.map((a) => 1 + draw([5, 4, 3, 6, 4][a]!)), answer: 1 };
        });
        const pool: CommonPool = { queries, requested: 60, attempts: 60, minAnswer: 1 };
        const dense = estimatePool(pool, released);
        // No joint table at all: every query reads records (posting lists or all).
        const listed = estimatePool(pool, released, 0);
        bruteForce(pool, released).forEach((expected, i) => {
          expect(dense[i]).toBeCloseTo(expected, 9);
          expect(listed[i]).toBeCloseTo(expected, 9);
        });
      }),
      { seed: 18, numRuns: 200 },
    );
  });

  it('spreads a generalized value uniformly over the input values it covers', () => {
    // Values a, b, c, d; a and b released as "ab", c and d as collected.
    const truth = codes([1, 1, 2, 3, 4, 4]);
    const releasedOfRow = codes([1, 1, 1, 2, 3, 3]);
    const column = coveringColumn(truth, releasedOfRow, 5, 4, releasedOfRow);
    expect([...column.weights(1)]).toEqual([0, 0.5, 0, 0]);
    expect([...column.weights(3)]).toEqual([0, 0, 1, 0]);
    // A query on a counts half of the three "ab" records.
    const released: ReleasedRecords = { records: 6, scale: 1, columns: [column] };
    expect(estimatePool({ queries: [{ attributes: [0], values: [1], answer: 2 }], requested: 1, attempts: 1, minAnswer: 1 }, released)[0]).toBe(1.5);
  });

  it('recovers a count from randomized values in expectation (the randomized-response estimator)', () => {
    // m = 2, p = 0.5: a record showing x counts (1 − 0.25)/0.5 = 1.5, one showing the other value −0.5.
    const column = randomizedColumn(['', 'x', 'y'], ['x', 'y'], codes([0, 0, 0, 1]), 0.5, 2);
    expect([...column.weights(1)]).toEqual([1.5, -0.5]);
  });
});
