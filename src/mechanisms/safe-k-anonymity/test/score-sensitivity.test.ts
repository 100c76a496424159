import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { intervalHierarchy, maskingHierarchy } from '../../../common/recoding/hierarchy.js';
import { scoreRule, scoreSensitivity } from '../lattice-score.js';
import { latticeColumn, latticeNodes, nodeScore } from '../lattice.js';
import { tableFromRows } from '../../../common/table/table.js';

/**
 * The exponential mechanism's guarantee rests on Δu: for a sample and the same
 * sample with one record added (or removed), every node's score moves by at
 * most Δu = c (the ramp's slope), in score units c·unit.
 */
describe('the search score has sensitivity Δu = c between neighbouring samples', () => {
  const row = fc.tuple(fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 999 }));
  it('|u(D) − u(D ± one record)| ≤ c·unit at every lattice node (property, fixed seed)', () => {
    fc.assert(
      fc.property(
        fc.array(row, { minLength: 2, maxLength: 40 }),
        fc.integer({ min: 2, max: 6 }),
        fc.integer({ min: 1, max: 4 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.infiniteStream(fc.boolean()),
        (rows, k, slope, lossWeight, coins) => {
          // D: a random subset of the rows but the last; D′: D and the last row. Each is its own table,
          // so a loss or dictionary that depended on the data present would show here too.
          const picks = [...coins.take(rows.length - 1)];
          const d = rows.slice(0, -1).filter((_, i) => picks[i]);
          const dPlus = [...d, rows[rows.length - 1]!];
          const prepare = (sample: readonly (readonly [number, number])[]) => {
            const table = tableFromRows(['age', 'zip'], sample.map(([a, z]) => [String(a), String(z).padStart(3, '0')]));
            const columns = [latticeColumn(table.columns[0]!, intervalHierarchy([10, 20])), latticeColumn(table.columns[1]!, maskingHierarchy(3))];
            return { columns, rows: Uint32Array.from(sample, (_, i) => i) };
          };
          const small = prepare(d);
          const large = prepare(dPlus);
          const rule = scoreRule(k, 2, rows.length, { slope, lossWeight });
          const bound = Number(scoreSensitivity(rule).num);
          for (const node of latticeNodes(large.columns)) {
            const change = Math.abs(nodeScore(rule, large.columns, node, large.rows) - nodeScore(rule, small.columns, node, small.rows));
            expect(change).toBeLessThanOrEqual(bound);
          }
        },
      ),
      { numRuns: 150, seed: 424242 },
    );
  });

  it('the bound is tight: one record can move the score by exactly c·unit', () => {
    // k = 4, c = 4: a class of 3 scores g(3) = max(0, 12 − 12) = 0, a class of 4 scores g(4) = 4.
    const table = tableFromRows(['age', 'zip'], [['30', '100'], ['30', '100'], ['30', '100'], ['30', '100']]);
    const columns = [latticeColumn(table.columns[0]!, intervalHierarchy([10])), latticeColumn(table.columns[1]!, maskingHierarchy(3))];
    const rule = scoreRule(4, 2, 4, { slope: 4, lossWeight: 0 });
    const four = nodeScore(rule, columns, [0, 0], Uint32Array.from([0, 1, 2, 3]));
    const three = nodeScore(rule, columns, [0, 0], Uint32Array.from([0, 1, 2]));
    expect(four - three).toBe(Number(scoreSensitivity(rule).num));
  });
});
