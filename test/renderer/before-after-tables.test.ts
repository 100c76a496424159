import { describe, expect, it } from 'vitest';
import { crossTable, distributionOf, MISSING, OTHER } from '../../src/renderer/components/before-after-tables.js';

describe('before/after figures', () => {
  it('cross-tabulates two columns, gathering rare values and naming missing ones', () => {
    const records = [
      ['F', 'a'],
      ['F', 'a'],
      ['M', 'b'],
      ['M', ''],
      ['X', 'c'],
      ['F', 'c'],
    ];
    const t = crossTable(records, 0, 1, 2);
    expect(t.rows).toEqual(['F', 'M', OTHER]);
    expect(t.columns).toEqual(['a', 'c', OTHER]);
    expect(t.counts).toEqual([
      [2, 1, 0],
      [0, 0, 2],
      [0, 1, 0],
    ]);
    expect(t.total).toBe(6);
    const all = crossTable(records, 0, 1);
    expect(all.columns).toContain(MISSING);
    expect(all.counts.flat().reduce((s, n) => s + n, 0)).toBe(6);
  });

  it('gives each listed value its share of all records and counts the unlisted ones', () => {
    const info = { name: 'x', type: 'text', distinct: 4, missing: 1, top: [{ value: 'a', count: 5 }, { value: 'b', count: 3 }, { value: 'c', count: 1 }] };
    expect(distributionOf(info, 10, 2)).toEqual({ shares: [{ value: 'a', count: 5, share: 0.5 }, { value: 'b', count: 3, share: 0.3 }], others: 1 });
  });
});
