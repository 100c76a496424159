import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decimalText, exactColumn, exactGroupValues, informationLoss, parseDecimal } from '../exact.js';
import { mdav, standardize } from '../mdav.js';

/**
 * MDAV written as the papers state it, with arrays and full sorts: the reference the typed-array
 * version must equal group for group (same tie rule: lower row first).
 */
function referenceMdav(rows: readonly (readonly number[])[], k: number): number[][] {
  const n = rows.length;
  const p = rows[0]!.length;
  const cols = Array.from({ length: p }, (_, j) => Float64Array.from(rows, (row) => row[j]!));
  const z = standardize(cols, n);
  const at = (r: number): number[] => Array.from({ length: p }, (_, j) => z[r * p + j]!);
  const d2 = (a: readonly number[], b: readonly number[]): number => a.reduce((s, x, j) => s + (x - b[j]!) ** 2, 0);
  let left = Array.from({ length: n }, (_, r) => r);
  const groups: number[][] = [];
  const farthestFrom = (o: readonly number[]): number => left.reduce((best, r) => (d2(at(r), o) > d2(at(best), o) ? r : best), left[0]!);
  const takeNearest = (o: readonly number[]): void => {
    const sorted = [...left].sort((a, b) => d2(at(a), o) - d2(at(b), o) || a - b);
    const group = sorted.slice(0, k);
    groups.push(group.sort((a, b) => a - b));
    left = left.filter((r) => !group.includes(r));
  };
  while (left.length >= 2 * k) {
    const centroid = Array.from({ length: p }, (_, j) => left.reduce((s, r) => s + z[r * p + j]!, 0) / left.length);
    const r = farthestFrom(centroid);
    const s = farthestFrom(at(r));
    const two = left.length >= 3 * k;
    takeNearest(at(r));
    if (two) takeNearest(at(s));
  }
  if (left.length > 0) groups.push(left);
  return groups;
}

function groupsOf(groupOf: Uint32Array, count: number): number[][] {
  const out: number[][] = Array.from({ length: count }, () => []);
  groupOf.forEach((g, r) => out[g]!.push(r));
  return out;
}

function run(rows: readonly (readonly number[])[], k: number) {
  const p = rows[0]!.length;
  const cols = Array.from({ length: p }, (_, j) => Float64Array.from(rows, (row) => row[j]!));
  return { cols, partition: mdav(standardize(cols, rows.length), rows.length, p, k) };
}

const table = (p: number, minRows: number, max = 60) =>
  fc.array(fc.array(fc.integer({ min: 0, max }), { minLength: p, maxLength: p }), { minLength: minRows, maxLength: 90 });

describe('MDAV', () => {
  it('forms the hand-worked partition of a small one-column table', () => {
    // n = 10, k = 3. Centroid 12.5; r = 1 (11.5 away), s = 23 (farthest from 1). 10 ≥ 3k: {1,2,3} around r,
    // then {21,22,23} around s; 4 left < 2k: {10,11,12,20} is the last group (k … 2k − 1 = 3 … 5).
    const values = [1, 2, 3, 10, 11, 12, 20, 21, 22, 23];
    const { cols, partition } = run(values.map((v) => [v]), 3);
    expect(groupsOf(partition.groupOf, partition.count)).toEqual([[0, 1, 2], [7, 8, 9], [3, 4, 5, 6]]);
    const texts = (how: 'mean' | 'median') => exactGroupValues(exactOf(cols[0]!), partition, how, 2).map((v) => decimalText(v, 2));
    expect(texts('mean')).toEqual(['2', '22', '13.25']);
    expect(texts('median')).toEqual(['2', '22', '11.5']);
  });

  it('forms the hand-worked partition of a two-column table on z-scores, not raw values', () => {
    // A (0,0), B (1,10), C (100,1), D (101,9); k = 2, so one round (4 ≥ 2k, < 3k): a group around r, the rest last.
    // z-scores: x → ±0.990, ±1.010 (sd 50.0025); y → ∓1.104, ±0.884 (sd √20.5). Squared distances from the
    // centroid 0: A 2.240, B 2.200, C 1.760, D 1.800, so r = A; from A: B 4.878, C 4.048, D 8.031, so {A, C}, then {B, D}.
    // On raw values x would dominate (r = A, nearest B at 101): {A, B}, {C, D}.
    const { partition } = run([[0, 0], [1, 10], [100, 1], [101, 9]], 2);
    expect(groupsOf(partition.groupOf, partition.count)).toEqual([[0, 2], [1, 3]]);
  });

  it('forms the hand-worked partition where every distance ties (lower row first)', () => {
    // (0,0),(0,1),(100,0),(100,1) twice; k = 2. Centroid (0,0) in z-scores, every record equally far: r = row 0;
    // s = farthest from row 0, (100,1): rows 3 and 7, the lower is 3. Around r: rows 0 and 4 (identical); around s:
    // rows 3 and 7. 4 left (≥ 2k, < 3k): every record equally far from the centroid again, r = row 1 with row 5;
    // rows 2 and 6 last.
    const rows = [[0, 0], [0, 1], [100, 0], [100, 1], [0, 0], [0, 1], [100, 0], [100, 1]];
    const { partition } = run(rows, 2);
    expect(groupsOf(partition.groupOf, partition.count)).toEqual([[0, 4], [3, 7], [1, 5], [2, 6]]);
  });

  it('equals the reference written from the papers on random tables (property)', () => {
    fc.assert(
      fc.property(table(2, 2), fc.integer({ min: 1, max: 6 }), (rows, k) => {
        fc.pre(rows.length >= k);
        const { partition } = run(rows, k);
        const ours = groupsOf(partition.groupOf, partition.count).map((g) => g.join(','));
        expect(ours).toEqual(referenceMdav(rows, k).map((g) => g.join(',')));
      }),
      { numRuns: 150, seed: 17 },
    );
  });

  it('breaks ties as the reference does, by the lower row (property on few distinct values)', () => {
    fc.assert(
      fc.property(table(2, 2, 2), fc.integer({ min: 2, max: 5 }), (rows, k) => {
        fc.pre(rows.length >= k);
        const { partition } = run(rows, k);
        expect(groupsOf(partition.groupOf, partition.count).map((g) => g.join(','))).toEqual(referenceMdav(rows, k).map((g) => g.join(',')));
      }),
      { numRuns: 150, seed: 23 },
    );
  });

  it('makes groups of k … 2k − 1 records, only the last above k, with exact means (property)', () => {
    fc.assert(
      fc.property(table(3, 1), fc.integer({ min: 1, max: 8 }), (rows, k) => {
        fc.pre(rows.length >= k);
        const { cols, partition } = run(rows, k);
        const sizes = Array.from(partition.sizes);
        sizes.forEach((size, g) => {
          expect(size).toBeGreaterThanOrEqual(k);
          expect(size).toBeLessThanOrEqual(g === sizes.length - 1 ? 2 * k - 1 : k);
        });
        expect(sizes.reduce((a, b) => a + b, 0)).toBe(rows.length);
        cols.forEach((col) => {
          // Means at 10 places: the sum over the size, rounded half away from zero (integers: exact in doubles up to the rounding).
          const means = exactGroupValues(exactOf(col), partition, 'mean', 10);
          for (let g = 0; g < partition.count; g++) {
            let sum = 0;
            col.forEach((v, r) => (sum += partition.groupOf[r] === g ? v : 0));
            expect(Number(decimalText(means[g]!, 10))).toBeCloseTo(sum / sizes[g]!, 9);
          }
        });
      }),
      { numRuns: 200, seed: 1705 },
    );
  });

  it('refuses fewer records than k', () => {
    expect(() => mdav(new Float64Array(2), 2, 1, 3)).toThrow(RangeError);
  });
});

/** A column of doubles held exactly (their shortest decimal text), one dictionary entry per record. */
function exactOf(values: Float64Array) {
  return exactColumn(Array.from(values, (v) => parseDecimal(String(v))), Uint32Array.from(values, (_, r) => r));
}

/** Released values (counts of 10^-decimals) of a column under a partition, mean rounded at `decimals`. */
function releasedOf(values: Float64Array, partition: ReturnType<typeof mdav>, decimals: number) {
  return exactGroupValues(exactOf(values), partition, 'mean', decimals);
}

describe('released values and information loss', () => {
  it('rounds the exact mean half away from zero as written', () => {
    const one = { groupOf: new Uint32Array(2), sizes: Uint32Array.of(2), count: 1 };
    const text = (a: number, b: number, d: number) => decimalText(exactGroupValues(exactOf(Float64Array.of(a, b)), one, 'mean', d)[0]!, d);
    expect(text(1.005, 1.005, 2)).toBe('1.01');
    expect(text(-1.005, -1.005, 2)).toBe('-1.01');
    expect(text(37.4, 37.4, 2)).toBe('37.4');
    expect(text(2, 3, 0)).toBe('3');
    expect(text(-2, -3, 0)).toBe('-3');
    expect(text(-0.001, -0.001, 2)).toBe('0');
    expect(text(13, 13.5, 1)).toBe('13.3');
    // 0.125 + 0.135 = 0.26 exactly: 0.13, never 0.12999… rounded down.
    expect(text(0.125, 0.135, 2)).toBe('0.13');
  });

  it('SSE/SST is the within-group share of the sum of squares; IL1s is sdcMicro\'s', () => {
    const x = Float64Array.from([1, 2, 3, 10, 11, 12, 20, 21, 22, 23]);
    const { partition } = run(Array.from(x, (v) => [v]), 3);
    const loss = informationLoss([exactOf(x)], [releasedOf(x, partition, 10)], partition, 10);
    // SST = Σ(x − 12.5)² = 670.5; SSE = 2 + 2 + (3.25² + 2.25² + 1.25² + 6.75²) = 4 + 62.75.
    expect(loss.ratio).toBeCloseTo(66.75 / 670.5, 12);
    expect(loss.sst).toBe(10);
    // IL1s as sdcMicro's dUtility: Σ|x − x′| = 1 + 0 + 1 + 3.25 + 2.25 + 1.25 + 6.75 + 1 + 0 + 1 = 17.5, S = √(670.5 / 9).
    expect(loss.il1s).toBeCloseTo(((17.5 / Math.sqrt(670.5 / 9)) * Math.SQRT2) / 10, 12);
    const three = new Float64Array(10).fill(3);
    const withConstant = informationLoss([exactOf(x), exactOf(three)], [releasedOf(x, partition, 10), releasedOf(three, partition, 10)], partition, 10);
    expect(withConstant.il1s).toBeCloseTo(((17.5 / Math.sqrt(670.5 / 9)) * Math.SQRT2) / 20, 12);
    // Nothing moved: no loss.
    const singles = { groupOf: Uint32Array.from(x, (_, r) => r), sizes: new Uint32Array(10).fill(1), count: 10 };
    const none = informationLoss([exactOf(x)], [releasedOf(x, singles, 10)], singles, 10);
    expect([none.ratio, none.il1s]).toEqual([0, 0]);
  });
});
