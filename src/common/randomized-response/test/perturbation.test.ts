import { describe, expect, it } from 'vitest';
import { groupRows } from '../../table/micro-groups.js';
import { uniformPerturbationRelease } from '../perturbation/release.js';
import { SeededTestRandomSource } from '../../random/source.js';
import { rationalFromNumber } from '../../exact/rational.js';
import { tableFromRows } from '../../table/table.js';
import { chiSquare, chiSquareCritical } from '../../../../test/stats.js';

describe('uniform perturbation matches its exact distribution', () => {
  it('released frequency of each value is p·f + (1−p)/m (χ², 0.1%), with the test generator', () => {
    const m = 6;
    const n = 120_000;
    const f = [0.5, 0.2, 0.15, 0.1, 0.05, 0];
    const values = new Uint32Array(n);
    let k = 0;
    f.forEach((share, v) => {
      for (let i = 0; i < Math.round(share * n); i++) values[k++] = v;
    });
    for (const p of [0.3, 0.7]) {
      const release = uniformPerturbationRelease(new SeededTestRandomSource(31), n, [{ values, domainSize: m, retention: rationalFromNumber(p) }]);
      const observed = new Array(m).fill(0);
      for (const v of release.sensitive[0]!) observed[v]++;
      const expected = f.map((share) => n * (p * share + (1 - p) / m));
      expect(chiSquare(observed, expected)).toBeLessThan(chiSquareCritical(m - 1));
      // The value never present (f = 0) still appears: replacement draws from the whole domain.
      expect(observed[5]).toBeGreaterThan(0);
    }
  });

  it('the per-input transition matches the matrix: kept value has p + (1−p)/m', () => {
    const n = 60_000;
    const m = 4;
    const values = new Uint32Array(n).fill(2);
    const release = uniformPerturbationRelease(new SeededTestRandomSource(8), n, [{ values, domainSize: m, retention: rationalFromNumber(0.6) }]);
    const observed = new Array(m).fill(0);
    for (const v of release.sensitive[0]!) observed[v]++;
    const expected = [0.1, 0.1, 0.7, 0.1].map((q) => q * n);
    expect(chiSquare(observed, expected)).toBeLessThan(chiSquareCritical(m - 1));
  });

  it('rows come out in random order but each row keeps its own non-sensitive values', () => {
    const rows = Array.from({ length: 500 }, (_, i) => [`id${i}`, i % 2 === 0 ? 'a' : 'b']);
    const table = tableFromRows(['q', 'sa'], rows);
    const values = Uint32Array.from(table.columns[1]!.codes, (c) => c - 1);
    const release = uniformPerturbationRelease(new SeededTestRandomSource(4), rows.length, [{ values, domainSize: 2, retention: rationalFromNumber(0.5) }]);
    const order = [...release.sourceRow];
    expect(new Set(order).size).toBe(rows.length);
    const inPlace = order.filter((r, i) => r === i).length;
    expect(inPlace).toBeLessThan(20);
    expect(groupRows([table.columns[0]!], rows.length).groupCount).toBe(500);
  });
});
