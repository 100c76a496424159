import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tableHierarchy } from '../../../common/recoding/hierarchy.js';
import { tableFromRows } from '../../../common/table/table.js';
import { ClassBuilder } from '../../../common/recoding/search/class-table.js';
import { closeness, modelContext } from '../../../common/recoding/search/models.js';
import { quasiColumn, sensitiveColumn } from '../../../common/recoding/search/recoding-input.js';

/** Classes of a table keyed by one column `c`, with the distances of each class's sensitive column `s`. */
function distances(rows: readonly (readonly [string, string])[], hierarchyRows?: string[][]) {
  const table = tableFromRows(['c', 's'], rows.map(([c, s]) => [c, s]), []);
  const q = quasiColumn(table.columns[0]!, undefined);
  const s = sensitiveColumn(table.columns[1]!, hierarchyRows ? tableHierarchy(hierarchyRows) : undefined);
  const classes = new ClassBuilder([q], s, table.rowCount).fromRecords([0]);
  const ctx = modelContext(s, table.rowCount);
  const byLabel = new Map<string, { equal: number; ordered: number; hierarchical?: number }>();
  const codes = classes.column(0);
  for (let c = 0; c < classes.count; c++) {
    byLabel.set(q.labels[0]![codes[c]!]!, {
      equal: closeness('equal', classes, c, ctx),
      ordered: closeness('ordered', classes, c, ctx),
      ...(hierarchyRows ? { hierarchical: closeness('hierarchical', classes, c, ctx) } : {}),
    });
  }
  return byLabel;
}

describe('t-closeness distances', () => {
  it('ordered distance: the worked example of Li, Li, Venkatasubramanian (2007), salaries 3k … 11k', () => {
    // Class 1 holds 3k, 4k, 5k; class 2 holds 6k, 8k, 11k; class 3 the rest. The paper: 0.375 and 0.167
    // (11 sorts after 10 as a number, which the second figure needs).
    const rows: [string, string][] = [
      ['1', '3'], ['1', '4'], ['1', '5'], ['2', '6'], ['2', '8'], ['2', '11'], ['3', '7'], ['3', '9'], ['3', '10'],
    ];
    const d = distances(rows);
    expect(d.get('1')!.ordered).toBeCloseTo(0.375, 12);
    expect(d.get('2')!.ordered).toBeCloseTo(1 / 6, 12);
    expect(d.get('1')!.equal).toBeCloseTo(2 / 3, 12);
  });

  it('hierarchical distance equals the tree earth mover\'s distance Σ_edges |surplus below| / (2H) (property)', () => {
    // Leaves v0…v5, a random nested hierarchy of height 3 (two grouping levels, then *).
    const leaves = 6;
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 2 }), { minLength: leaves, maxLength: leaves }),
        fc.array(fc.integer({ min: 0, max: 1 }), { minLength: 3, maxLength: 3 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: leaves - 1 })), { minLength: 1, maxLength: 40 }),
        (level1, level2, records) => {
          const hierarchy = Array.from({ length: leaves }, (_, v) => [`v${v}`, `a${level1[v]}`, `b${level2[level1[v]!]}`, '*']);
          const rows = records.map(([c, v]): [string, string] => [`c${c}`, `v${v}`]);
          const d = distances(rows, hierarchy);
          const n = rows.length;
          const overall = new Map<string, number>();
          for (const [, v] of rows) overall.set(v, (overall.get(v) ?? 0) + 1 / n);
          for (const [label, dist] of d) {
            const members = rows.filter(([c]) => c === label);
            const p = new Map<string, number>();
            for (const [, v] of members) p.set(v, (p.get(v) ?? 0) + 1 / members.length);
            // Every edge from a node at level l < H to its parent carries |Σ (p − q) below the node| · 1/(2H).
            let emd = 0;
            for (let level = 0; level < 3; level++) {
              const surplus = new Map<string, number>();
              for (const row of hierarchy) surplus.set(row[level]!, (surplus.get(row[level]!) ?? 0) + (p.get(row[0]!) ?? 0) - (overall.get(row[0]!) ?? 0));
              for (const s of surplus.values()) emd += Math.abs(s) / 6;
            }
            expect(dist.hierarchical!).toBeCloseTo(emd, 10);
          }
        },
      ),
      { seed: 20261124, numRuns: 200 },
    );
  });
});

describe('histogram size', () => {
  it('refuses, with a plain message, more classes × sensitive values than it can count', () => {
    const rows = Array.from({ length: 9000 }, (_, i): [string, string] => [`c${i}`, `s${i}`]);
    expect(() => distances(rows)).toThrow(/9,000 classes × 9,001 sensitive values are too many to count per class/);
  });
});
