import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CountQuerySpec } from '../../src/engine/dp/count-queries.js';
import { maxMatches } from '../../src/jobs/methods/dp-counts.js';

/** Every record over columns 0..2 with values 1..6 (value 6 named by no query): the most queries one matches. */
function bruteForce(queries: readonly CountQuerySpec[]): number {
  let best = 0;
  for (let a = 1; a <= 6; a++) for (let b = 1; b <= 6; b++) for (let c = 1; c <= 6; c++) {
    const record = [a, b, c];
    best = Math.max(best, queries.filter((q) => [...q.where].every(([col, v]) => record[col] === v)).length);
  }
  return Math.max(1, best);
}

describe('sensitivity of explicit count queries', () => {
  it('equals the most queries any possible record matches, values outside the data included (property)', () => {
    const query = fc.dictionary(fc.constantFrom('0', '1', '2'), fc.integer({ min: 1, max: 5 }), { minKeys: 1, maxKeys: 3 }).map((w): CountQuerySpec => ({ where: new Map(Object.entries(w).map(([c, v]) => [Number(c), v])) }));
    fc.assert(fc.property(fc.array(query, { minLength: 1, maxLength: 12 }), (queries) => {
        expect(maxMatches(queries)).toBe(bruteForce(queries));
      }),
      { numRuns: 200 },
    );
  });

  it('counts disjoint cells of one column once and crossing queries together', () => {
    const q = (where: [number, number][]): CountQuerySpec => ({ where: new Map(where) });
    expect(maxMatches([q([[0, 1]]), q([[0, 2]]), q([[1, 3]])])).toBe(2);
    expect(maxMatches([q([[0, 1]]), q([[0, 1], [1, 3]]), q([[1, 3]])])).toBe(3);
  });
});
