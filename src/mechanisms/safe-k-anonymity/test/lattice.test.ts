import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generalizeColumn, intervalHierarchy, maskingHierarchy } from '../../../common/recoding/hierarchy.js';
import { classCredit, scoreRule } from '../lattice-score.js';
import { latticeNodes, nodeAt, nodeScore, type LatticeColumn } from '../lattice.js';
import { scoreLattice } from '../lattice-rollup.js';
import { chooseGeneralization, choosePath } from '../lattice-search.js';
import { SeededTestRandomSource } from '../../../common/random/source.js';
import { tableFromRows } from '../../../common/table/table.js';

/** age (intervals 5, 10, *), a 5-digit code (masking), a 3-valued column without hierarchy. */
function threeColumnLattice(rows: readonly (readonly [number, number, string])[]): LatticeColumn[] {
  const t = tableFromRows(['age', 'zip', 'c'], rows.map(([a, z, c]) => [String(a), String(z), c]));
  return [
    { levels: [0, 1, 2, 3].map((l) => generalizeColumn(t.columns[0]!, intervalHierarchy([5, 10]), l)) },
    { levels: [0, 1, 2, 3, 4, 5].map((l) => generalizeColumn(t.columns[1]!, maskingHierarchy(5), l)) },
    { levels: [generalizeColumn(t.columns[2]!, undefined, 0)] },
  ];
}

describe('lattice search score', () => {
  it('credits released classes fully and classes just below k on a ramp of slope c', () => {
    const rule = scoreRule(10, 2, 100, { slope: 4 });
    expect([0, 7, 8, 9, 10, 25].map((s) => classCredit(rule, s))).toEqual([0, 0, 2, 6, 10, 25]);
    // g is superadditive, the property the branch bound rests on.
    for (let a = 0; a < 30; a++) for (let b = 0; b < 30; b++) expect(classCredit(rule, a) + classCredit(rule, b)).toBeLessThanOrEqual(classCredit(rule, a + b));
  });

  it('scores kept records by 1 − λ·loss in exact integer units', () => {
    const rows = Array.from({ length: 400 }, (_, i) => [String(20 + (i % 40)), ['a', 'b'][i % 2]!]);
    const table = tableFromRows(['age', 'g'], rows);
    const lattice = [{ levels: [0, 1, 2, 3].map((l) => generalizeColumn(table.columns[0]!, intervalHierarchy([5, 10]), l)) }, { levels: [generalizeColumn(table.columns[1]!, undefined, 0)] }];
    const sample = Uint32Array.from({ length: 400 }, (_, i) => i);
    const rule = scoreRule(11, 2, 400, { slope: 4, lossWeight: 1 });
    // Level 0: 40 classes of 10 records, each credited 4·10 − 3·11 = 7 at no loss.
    expect(nodeScore(rule, lattice, [0, 0], sample) / rule.unit).toBe(280);
    // "*" keeps all 400 records at loss 1 on age and 0 on g: 400 × (1 − ½).
    expect(nodeScore(rule, lattice, [3, 0], sample) / rule.unit).toBe(200);
    const half = scoreRule(11, 2, 400, { slope: 4, lossWeight: 0.5 });
    expect(nodeScore(half, lattice, [3, 0], sample) / half.unit).toBe(300);
  });

  it('nodeAt inverts the latticeNodes order', () => {
    const lattice = threeColumnLattice([[20, 10000, 'x']]);
    latticeNodes(lattice).forEach((node, i) => expect(nodeAt(lattice, i)).toEqual(node));
  });
});

describe('lattice roll-up and its branch bound', () => {
  const rowsArb = fc.array(fc.tuple(fc.integer({ min: 17, max: 60 }), fc.integer({ min: 0, max: 40 }).map((z) => 10000 + z * 37), fc.constantFrom('x', 'y', 'z')), { minLength: 1, maxLength: 250 });

  it('scores every node exactly as the records give it (property)', () => {
    fc.assert(
      fc.property(rowsArb, fc.integer({ min: 2, max: 12 }), fc.integer({ min: 1, max: 6 }), (rows, k, slope) => {
        const lattice = threeColumnLattice(rows);
        const sample = Uint32Array.from({ length: rows.length }, (_, i) => i).filter((i) => i % 3 !== 1);
        const rule = scoreRule(k, 3, sample.length, { slope });
        const { score, exact, best } = scoreLattice(rule, lattice, sample);
        const direct = latticeNodes(lattice).map((node) => nodeScore(rule, lattice, node, sample));
        expect(Array.from(score)).toEqual(direct);
        expect(exact.every((e) => e === 1)).toBe(true);
        expect(best).toBe(Math.max(...direct));
      }),
      { numRuns: 60 },
    );
  });

  it('with pruning, exact scores are right, bounds are never below the score, and the best is found (property)', () => {
    fc.assert(
      fc.property(rowsArb, fc.integer({ min: 2, max: 12 }), fc.integer({ min: 0, max: 3 }), (rows, k, margin) => {
        const lattice = threeColumnLattice(rows);
        const sample = Uint32Array.from({ length: rows.length }, (_, i) => i);
        const rule = scoreRule(k, 3, sample.length, { lossWeight: 0.5 });
        const { score, exact, best } = scoreLattice(rule, lattice, sample, { prune: { margin: margin * rule.unit } });
        const direct = latticeNodes(lattice).map((node) => nodeScore(rule, lattice, node, sample));
        direct.forEach((d, i) => (exact[i] === 1 ? expect(score[i]).toBe(d) : expect(score[i]).toBeGreaterThanOrEqual(d)));
        expect(best).toBe(Math.max(...direct));
        for (let i = 0; i < score.length; i++) expect(score[i]).toBeLessThanOrEqual(best);
      }),
      { numRuns: 60 },
    );
  });

  it('prunes specific branches on a table where they are hopeless', () => {
    const rows = Array.from({ length: 3000 }, (_, i) => [17 + ((i * 7) % 60), 10000 + ((i * 13) % 97) * 3, ['x', 'y', 'z'][i % 3]!] as const);
    const lattice = threeColumnLattice(rows);
    const sample = Uint32Array.from({ length: rows.length }, (_, i) => i);
    const rule = scoreRule(40, 3, sample.length);
    const pruned = scoreLattice(rule, lattice, sample, { prune: { margin: 0 } });
    expect(pruned.exact.reduce((a, b) => a + b, 0)).toBeLessThan(pruned.exact.length);
  });
});

describe('lattice search (exponential mechanism)', () => {
  const rows = Array.from({ length: 400 }, (_, i) => [String(20 + (i % 40)), ['a', 'b'][i % 2]!]);
  const table = tableFromRows(['age', 'g'], rows);
  const lattice = [{ levels: [0, 1, 2, 3].map((l) => generalizeColumn(table.columns[0]!, intervalHierarchy([5, 10]), l)) }, { levels: [generalizeColumn(table.columns[1]!, undefined, 0)] }];
  const sample = Uint32Array.from({ length: 400 }, (_, i) => i);
  const rule = scoreRule(11, 2, 400);

  it('with a large budget picks the best node; with a tiny one any node is possible', () => {
    const scores = latticeNodes(lattice).map((node) => nodeScore(rule, lattice, node, sample));
    const bestNode = latticeNodes(lattice)[scores.indexOf(Math.max(...scores))]!;
    expect(chooseGeneralization(new SeededTestRandomSource(1), rule, lattice, sample, 50).node).toEqual(bestNode);
    const seen = new Set<string>();
    for (let seed = 0; seed < 200; seed++) seen.add(chooseGeneralization(new SeededTestRandomSource(seed), rule, lattice, sample, 0.001).node.join());
    expect(seen.size).toBe(4);
  });

  it('an empty or tiny sample scores every node 0 and still draws a node', () => {
    for (const rows of [new Uint32Array(0), Uint32Array.of(3)]) {
      const choice = chooseGeneralization(new SeededTestRandomSource(2), scoreRule(11, 2, rows.length), lattice, rows, 0.1);
      expect(choice.bestScore).toBe(0);
      expect(choice.node).toHaveLength(2);
    }
  });

  it('the path walk visits at most one node per step and ends among visited nodes', () => {
    const choice = choosePath(new SeededTestRandomSource(3), rule, lattice, sample, 100);
    expect(choice.steps).toBe(3);
    expect(choice.scored).toBeLessThanOrEqual(4);
    expect(choice.score).toBe(choice.bestScore);
  });
});
