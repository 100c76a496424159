import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { answerQueries, drawQueryPool, poolRelativeError, type CountQuery } from '../query-pool.js';
import { uniformInt } from '../../random/draws.js';
import { SeededTestRandomSource } from '../../random/source.js';
import { estimateCount } from '../../randomized-response/perturbation/estimate.js';
import { tableFromRows, type Column } from '../../table/table.js';

/** The definition, row by row. */
function bruteCount(columns: readonly Column[], rows: ArrayLike<number>, sensitive: Uint32Array, q: Pick<CountQuery, 'attributes' | 'values' | 'sensitiveValue'>): { count: number; marginal: number } {
  let count = 0;
  let marginal = 0;
  for (let i = 0; i < sensitive.length; i++) {
    const r = rows[i]!;
    if (!q.attributes.every((a, j) => columns[a]!.codes[r] === q.values[j])) continue;
    marginal++;
    if (sensitive[i] === q.sensitiveValue) count++;
  }
  return { count, marginal };
}

const tableArb = fc
  .record({ rows: fc.integer({ min: 1, max: 120 }), widths: fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 5 }), m: fc.integer({ min: 1, max: 4 }), seed: fc.integer({ min: 0, max: 2 ** 31 }) })
  .map(({ rows, widths, m, seed }) => {
    const source = new SeededTestRandomSource(seed);
    const body = Array.from({ length: rows }, () => widths.map((w) => `v${uniformInt(source, w)}`));
    const table = tableFromRows(widths.map((_, j) => `c${j}`), body);
    const sensitive = Uint32Array.from({ length: rows }, () => uniformInt(source, m));
    return { columns: table.columns, sensitive, m, seed };
  });

describe('count queries of the utility pool', () => {
  it('answers every query as counting the rows one by one would, on the input and through row references', () => {
    fc.assert(
      fc.property(tableArb, fc.integer({ min: 0, max: 2 ** 31 }), ({ columns, sensitive, m }, seed) => {
        const source = new SeededTestRandomSource(seed);
        const n = sensitive.length;
        const queries = Array.from({ length: 40 }, () => {
          const d = 1 + uniformInt(source, Math.min(3, columns.length));
          const pool = columns.map((_, j) => j);
          const attributes: number[] = [];
          for (let j = 0; j < d; j++) attributes.push(pool.splice(uniformInt(source, pool.length), 1)[0]!);
          attributes.sort((a, b) => a - b);
          return { attributes, values: attributes.map((a) => 1 + uniformInt(source, columns[a]!.distinct)), sensitiveValue: uniformInt(source, m) };
        });
        const identity = Uint32Array.from({ length: n }, (_, i) => i);
        const direct = answerQueries(columns, null, sensitive, m, queries);
        // A release: rows drawn with repetition from the input, in another order, with other sensitive values.
        const sourceRow = Uint32Array.from({ length: n + 7 }, () => uniformInt(source, n));
        const released = Uint32Array.from({ length: n + 7 }, () => uniformInt(source, m));
        const viaRows = answerQueries(columns, sourceRow, released, m, queries);
        queries.forEach((q, i) => {
          expect({ count: direct.count[i], marginal: direct.marginal[i] }).toEqual(bruteCount(columns, identity, sensitive, q));
          expect({ count: viaRows.count[i], marginal: viaRows.marginal[i] }).toEqual(bruteCount(columns, sourceRow, released, q));
        });
      }),
      { numRuns: 60 },
    );
  });

  it('keeps exactly the candidates a one-at-a-time draw keeps, in order, each with its true answer', () => {
    fc.assert(
      fc.property(tableArb, fc.integer({ min: 1, max: 60 }), ({ columns, sensitive, m, seed }, size) => {
        const options = { size, minSelectivity: 0.05, maxAttempts: 5000 };
        const pool = drawQueryPool(new SeededTestRandomSource(seed), columns, sensitive, m, options);
        // The reference: the same stream of candidates, each counted row by row before the next is drawn.
        const source = new SeededTestRandomSource(seed);
        const identity = Uint32Array.from({ length: sensitive.length }, (_, i) => i);
        const kept: CountQuery[] = [];
        let attempts = 0;
        while (kept.length < size && attempts < options.maxAttempts) {
          attempts++;
          const d = 1 + uniformInt(source, Math.min(3, columns.length));
          const choices = columns.map((_, j) => j);
          const attributes: number[] = [];
          for (let j = 0; j < d; j++) attributes.push(choices.splice(uniformInt(source, choices.length), 1)[0]!);
          attributes.sort((a, b) => a - b);
          const values = attributes.map((a) => 1 + uniformInt(source, columns[a]!.distinct));
          const sensitiveValue = uniformInt(source, m);
          const { count } = bruteCount(columns, identity, sensitive, { attributes, values, sensitiveValue });
          if (count >= pool.minAnswer) kept.push({ attributes, values, sensitiveValue, answer: count });
        }
        expect(pool.queries).toEqual(kept);
        expect(pool.attempts).toBe(attempts);
      }),
      { numRuns: 40 },
    );
  });

  it('the relative error of a release that is the input itself at p = 1 is 0; of another release, the mean over the pool', () => {
    const rows = Array.from({ length: 400 }, (_, i) => [`a${i % 3}`, `b${i % 5}`, `c${i % 7}`]);
    const { columns } = tableFromRows(['a', 'b', 'c'], rows);
    const sensitive = Uint32Array.from({ length: 400 }, (_, i) => (i * 7919) % 4);
    const pool = drawQueryPool(new SeededTestRandomSource(3), columns, sensitive, 4, { size: 50, minSelectivity: 0.01, maxAttempts: 10_000 });
    expect(pool.queries).toHaveLength(50);
    const identity = Uint32Array.from({ length: 400 }, (_, i) => i);
    expect(poolRelativeError(pool, columns, { sourceRow: identity, sensitive: [sensitive] }, 0, 1, 4)).toBe(0);
    const other = Uint32Array.from({ length: 400 }, (_, i) => (i * 31) % 4);
    const expected = pool.queries.reduce((sum, q) => {
      const { count, marginal } = bruteCount(columns, identity, other, q);
      return sum + Math.abs(estimateCount(count, marginal, 0.5, 4) - q.answer) / q.answer;
    }, 0) / pool.queries.length;
    expect(poolRelativeError(pool, columns, { sourceRow: identity, sensitive: [other] }, 0, 0.5, 4)).toBeCloseTo(expected, 12);
  });
});
