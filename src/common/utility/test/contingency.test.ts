import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hellinger, margins, totalVariation } from '../contingency.js';

/** Total variation as its definition: the largest difference in probability of any set of cells (every subset tried). */
function bruteTotalVariation(a: readonly number[], b: readonly number[]): number {
  const norm = (v: readonly number[]) => {
    const t = v.reduce((s, x) => s + Math.max(0, x), 0);
    return v.map((x) => Math.max(0, x) / t);
  };
  const p = norm(a);
  const q = norm(b);
  let best = 0;
  for (let set = 0; set < 1 << p.length; set++) {
    let d = 0;
    for (let i = 0; i < p.length; i++) if (set & (1 << i)) d += p[i]! - q[i]!;
    best = Math.max(best, Math.abs(d));
  }
  return best;
}

/** Hellinger through the Bhattacharyya coefficient: H² = 1 − Σ √(p q). */
function bruteHellinger(a: readonly number[], b: readonly number[]): number {
  const ta = a.reduce((s, x) => s + Math.max(0, x), 0);
  const tb = b.reduce((s, x) => s + Math.max(0, x), 0);
  const bc = a.reduce((s, x, i) => s + Math.sqrt((Math.max(0, x) / ta) * (Math.max(0, b[i]!) / tb)), 0);
  return Math.sqrt(Math.max(0, 1 - bc));
}

const cells = fc.array(fc.integer({ min: -3, max: 20 }), { minLength: 1, maxLength: 9 });

describe('contingency-table distances', () => {
  it('by hand: [3, 1] against [1, 3]', () => {
    expect(totalVariation([3, 1], [1, 3])).toBeCloseTo(0.5, 15);
    // ½((√¾ − √¼)² · 2) = 1 − 2√(3/16).
    expect(hellinger([3, 1], [1, 3])).toBeCloseTo(Math.sqrt(1 - 2 * Math.sqrt(3 / 16)), 14);
    expect(totalVariation([2, 0], [0, 5])).toBe(1);
    expect(totalVariation([0, 0], [1, 1])).toBe(1);
  });

  it('equal to brute force on random tables (negative cells read as 0)', () => {
    fc.assert(
      fc.property(cells, cells, (a0, b0) => {
        const n = Math.min(a0.length, b0.length);
        const a = [...a0.slice(0, n - 1), Math.abs(a0[n - 1]!) + 1];
        const b = [...b0.slice(0, n - 1), Math.abs(b0[n - 1]!) + 1];
        expect(totalVariation(a, b)).toBeCloseTo(bruteTotalVariation(a, b), 12);
        expect(hellinger(a, b)).toBeCloseTo(bruteHellinger(a, b), 7);
        expect(totalVariation(a, a)).toBe(0);
      }),
    );
  });

  it('margins of a 2 × 3 table', () => {
    const [rows, cols] = margins([1, 2, 3, 4, 5, 6], 2, 3);
    expect(Array.from(rows)).toEqual([6, 15]);
    expect(Array.from(cols)).toEqual([5, 7, 9]);
  });
});
