import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { groupRows, groupSize } from '../micro-groups.js';
import { tableFromRows } from '../table.js';

describe('micro groups', () => {
  it('agree with brute force on random tables (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c'), fc.constantFrom('1', '2', ''), fc.constantFrom('x', 'y')), { minLength: 1, maxLength: 200 }),
        (rows) => {
          const table = tableFromRows(['c1', 'c2', 'c3'], rows);
          const grouping = groupRows(table.columns, table.rowCount);
          const keys = rows.map((r) => r.join('\u0000'));
          expect(grouping.groupCount).toBe(new Set(keys).size);
          for (let i = 0; i < rows.length; i++) {
            for (let j = 0; j < rows.length; j++) {
              expect(grouping.groupOfRow[i] === grouping.groupOfRow[j]).toBe(keys[i] === keys[j]);
            }
          }
          let total = 0;
          for (let g = 0; g < grouping.groupCount; g++) total += groupSize(grouping, g);
          expect(total).toBe(rows.length);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('wide keys beyond 2^52 combinations are re-numbered, not truncated', () => {
    const n = 3000;
    const rows = Array.from({ length: n }, (_, i) => Array.from({ length: 8 }, (_, j) => `v${(i * (j + 3)) % 1500}`));
    rows.push([...rows[17]!]);
    const table = tableFromRows(Array.from({ length: 8 }, (_, j) => `c${j}`), rows);
    const grouping = groupRows(table.columns, table.rowCount);
    expect(grouping.groupCount).toBe(new Set(rows.map((r) => r.join('|'))).size);
    expect(grouping.groupOfRow[n]).toBe(grouping.groupOfRow[17]);
  });
});
