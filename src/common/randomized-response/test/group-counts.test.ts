import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { forEachGroupCounts, groupMaxCounts } from '../group-counts.js';
import { groupingOf } from '../../table/micro-groups.js';


describe('per-group value counts', () => {
  it('equal a brute-force count of every group, values in first-seen order (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 9 }),
        fc.array(fc.tuple(fc.nat(), fc.nat()), { minLength: 1, maxLength: 300 }),
        (groupCount, m, rows) => {
          const groupOf = rows.map(([g]) => g % groupCount);
          const values = Uint32Array.from(rows, ([, v]) => v % m);
          const grouping = groupingOf(Uint32Array.from(groupOf), groupCount);
          const seen: { values: number[]; counts: number[]; firstRow: number }[] = [];
          // The arrays are the visit's only: copied here, as a caller that keeps them must.
          forEachGroupCounts(grouping, values, m, (g, c, firstRow) => void (seen[g] = { values: [...c.values], counts: [...c.counts], firstRow }));
          for (let g = 0; g < groupCount; g++) {
            const rowsOfGroup = groupOf.flatMap((h, r) => (h === g ? [r] : []));
            const order: number[] = [];
            const count = new Map<number, number>();
            for (const r of rowsOfGroup) {
              if (!count.has(values[r]!)) order.push(values[r]!);
              count.set(values[r]!, (count.get(values[r]!) ?? 0) + 1);
            }
            expect(seen[g]!.values).toEqual(order);
            expect(seen[g]!.counts).toEqual(order.map((v) => count.get(v)!));
            if (rowsOfGroup.length > 0) expect(seen[g]!.firstRow).toBe(rowsOfGroup[0]);
          }
          expect([...groupMaxCounts(grouping, values, m)]).toEqual(seen.map((s) => (s.counts.length === 0 ? 0 : Math.max(...s.counts))));
        },
      ),
      { numRuns: 300 },
    );
  });
});
