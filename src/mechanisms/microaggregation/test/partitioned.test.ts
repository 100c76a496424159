import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mdav, standardize } from '../mdav.js';
import { blockSizes, firstPrincipalDirection, partitionedMdav, partitionedWork } from '../partitioned.js';

const pointsArb = fc.array(fc.tuple(fc.integer({ min: 0, max: 50 }), fc.integer({ min: -20, max: 20 })), { minLength: 2, maxLength: 150 });

describe('partitioned MDAV', () => {
  it('puts every record in a group of k … 2k − 1; blocks of at least the block size cover the records (property)', () => {
    fc.assert(
      fc.property(pointsArb, fc.integer({ min: 2, max: 5 }), fc.integer({ min: 0, max: 12 }), (points, k, extra) => {
        fc.pre(points.length >= k);
        const n = points.length;
        const blockSize = k + extra;
        const data = standardize([Float64Array.from(points, (q) => q[0]), Float64Array.from(points, (q) => q[1])], n);
        const { groupOf, sizes, count } = partitionedMdav(data, n, 2, k, blockSize);
        const counted = new Uint32Array(count);
        for (let r = 0; r < n; r++) counted[groupOf[r]!]!++;
        expect([...counted]).toEqual([...sizes]);
        for (const s of sizes) {
          expect(s).toBeGreaterThanOrEqual(k);
          expect(s).toBeLessThanOrEqual(2 * k - 1);
        }
        // The blocks: ⌊n / B⌋ of them (at least one), each at least B records when n ≥ B.
        const blocks = blockSizes(n, blockSize);
        expect(blocks.reduce((a, b) => a + b, 0)).toBe(n);
        if (n >= blockSize) for (const m of blocks) expect(m).toBeGreaterThanOrEqual(blockSize);
        expect(partitionedWork(n, 2, k, blockSize)).toBeLessThanOrEqual((n * 2 * blockSize * 4) / (2 * k));
      }),
      { numRuns: 150, seed: 7 },
    );
  });

  it('is MDAV itself when one block holds every record', () => {
    fc.assert(
      fc.property(pointsArb, fc.integer({ min: 2, max: 5 }), (points, k) => {
        fc.pre(points.length >= k);
        const n = points.length;
        const data = standardize([Float64Array.from(points, (q) => q[0]), Float64Array.from(points, (q) => q[1])], n);
        const whole = partitionedMdav(data, n, 2, k, n);
        const exact = mdav(data, n, 2, k);
        expect([...whole.groupOf]).toEqual([...exact.groupOf]);
      }),
      { numRuns: 80, seed: 3 },
    );
  });

  it('cuts along the direction of greatest spread: records on a line are grouped with their neighbours on it', () => {
    // 40 records on the line y = −x, each group of 2 must be two neighbours along it in any block.
    const n = 40;
    const xs = Float64Array.from({ length: n }, (_, i) => (i * 7) % n);
    const data = standardize([xs, Float64Array.from(xs, (x) => -x)], n);
    const direction = firstPrincipalDirection(data, n, 2);
    expect(Math.abs(direction[0]! + direction[1]!)).toBeLessThan(1e-9);
    expect(Math.abs(Math.abs(direction[0]!) - Math.SQRT1_2)).toBeLessThan(1e-9);
    const { groupOf, count } = partitionedMdav(data, n, 2, 2, 8);
    const members = Array.from({ length: count }, (): number[] => []);
    for (let r = 0; r < n; r++) members[groupOf[r]!]!.push(xs[r]!);
    for (const group of members) expect(Math.max(...group) - Math.min(...group)).toBe(group.length - 1);
  });

  it('refuses a block smaller than k', () => {
    expect(() => partitionedMdav(new Float64Array(10), 10, 1, 3, 2)).toThrow(/block size must be a whole number ≥ k = 3/);
  });
});
