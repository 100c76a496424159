import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FRONTIER_LIMITS, suppressionFrontier } from '../frontier.js';
import { better, bruteForceRecoding } from '../../../common/recoding/search/search.js';
import { caseArb } from './random-cases.js';

const SEED = 20261125;

describe('the utility–suppression frontier', () => {
  it('holds, at each limit of the grid, the optimum of a brute-force search at that limit, and leaves out limits that change nothing (property)', () => {
    fc.assert(
      fc.property(caseArb, fc.constantFrom(...FRONTIER_LIMITS, 0.3), (c, chosen) => {
        const limits = [...FRONTIER_LIMITS, chosen];
        const points = suppressionFrontier(c.input, limits);
        // Every limit's brute-force optimum, in order of the records the limit allows.
        const optima = [...new Set(limits)]
          .sort((a, b) => a - b)
          .map((limit) => ({ limit, optimum: bruteForceRecoding({ ...c.input, suppressionLimit: limit }).optimum }));
        const expected: { node: readonly number[]; measure: number }[] = [];
        for (const { optimum } of optima) {
          if (!optimum) continue;
          const last = expected[expected.length - 1];
          if (last && last.node.join() === optimum.node.join()) continue;
          expected.push(optimum);
        }
        expect(points.map((p) => p.node)).toEqual(expected.map((p) => p.node));
        points.forEach((p, i) => {
          expect(p.measure).toBeCloseTo(expected[i]!.measure, 9);
          expect(p.suppressedRecords).toBeLessThanOrEqual(Math.floor(p.suppressionLimit * c.input.rowCount));
          // A larger limit can only help: each later point is strictly better in the search's order.
          if (i > 0) expect(better({ node: p.node, measure: p.measure, suppressedRecords: p.suppressedRecords }, points[i - 1])).toBe(true);
        });
      }),
      { seed: SEED, numRuns: 150 },
    );
  });

  it('is empty when nothing satisfies the models at any limit', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const impossible = { ...c.input, models: [{ type: 'k-anonymity' as const, k: c.input.rowCount + 1 }] };
        expect(suppressionFrontier(impossible, [0, 0.5])).toEqual([]);
      }),
      { seed: SEED, numRuns: 20 },
    );
  });
});
