import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bucketsFromClasses, materializeBuckets, maxInference } from '../bucketize.js';
import { addFakeValues } from '../fake-values.js';
import { multiSizeValid } from '../max-flow.js';
import { multiSizeBucketing } from '../multi-size.js';
import { infeasibleValues, makeThresholds, minimumBucketSize } from '../thresholds.js';
import { pairAt, pairList } from '../pair-list.js';
import { oneSizeValid, squareLoss, twoSizeBucketing, twoSizeValid, validInterval } from '../two-size.js';
import { SeededTestRandomSource } from '../../../common/random/source.js';
import { rational, type Rational } from '../../../common/exact/rational.js';

const S_MAX = 9;


/** Small tables with feasible β (f_v ≤ β_v) as exact fractions. */
const instance = fc
  .array(fc.tuple(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 8 })), { minLength: 2, maxLength: 5 })
  .map((spec) => {
    const counts = spec.map(([o]) => o);
    const total = counts.reduce((a, b) => a + b, 0);
    const betas: Rational[] = spec.map(([o, a, b]) => {
      const candidate = rational(BigInt(Math.min(a, b)), BigInt(Math.max(a, b)));
      // Raise β to the value's frequency when the draw is below it, keeping the instance feasible.
      return candidate.num * BigInt(total) >= BigInt(o) * candidate.den ? candidate : rational(BigInt(o), BigInt(total));
    });
    return { counts, betas, total };
  });

/** Brute force over every one- and two-size setting in [sMin, sMax], validated by max-flow. */
function bruteForceBest(counts: number[], th: ReturnType<typeof makeThresholds>, sMin: number, sMax: number): number | null {
  const total = counts.reduce((a, b) => a + b, 0);
  let best: number | null = null;
  for (let s1 = sMin; s1 <= sMax; s1++) {
    for (let s2 = s1; s2 <= sMax; s2++) {
      for (let n1 = 0; n1 * s1 <= total; n1++) {
        const rest = total - n1 * s1;
        if (s1 === s2 ? rest !== 0 : rest % s2 !== 0) continue;
        const n2 = s1 === s2 ? 0 : rest / s2;
        const classes = [{ size: s1, count: n1 }, { size: s2, count: n2 }].filter((c) => c.count > 0);
        if (!multiSizeValid(counts, th, classes)) continue;
        const loss = n1 * squareLoss(s1) + n2 * squareLoss(s2);
        if (best === null || loss < best) best = loss;
      }
    }
  }
  return best;
}

describe('β-privacy engine properties', () => {
  it('(a) the two-size validity test agrees with max-flow', () => {
    fc.assert(
      fc.property(instance, fc.integer({ min: 1, max: S_MAX - 1 }), fc.integer({ min: 1, max: 4 }), ({ counts, betas, total }, s1, step) => {
        const th = makeThresholds(betas, S_MAX + 4);
        const s2 = s1 + step;
        for (let n1 = 0; n1 * s1 <= total; n1++) {
          const rest = total - n1 * s1;
          if (rest % s2 !== 0) continue;
          const n2 = rest / s2;
          const classes = [{ size: s1, count: n1 }, { size: s2, count: n2 }].filter((c) => c.count > 0);
          expect(twoSizeValid(counts, th, s1, n1, s2, n2)).toBe(multiSizeValid(counts, th, classes));
        }
        if (total % s1 === 0) expect(oneSizeValid(counts, th, s1, total / s1)).toBe(multiSizeValid(counts, th, [{ size: s1, count: total / s1 }]));
      }),
      { numRuns: 300 },
    );
  });

  it('the valid interval of L is exactly the set of valid pairs (Theorem 5.30)', () => {
    fc.assert(
      fc.property(instance, fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 6 }), ({ counts, betas, total }, s1, step) => {
        const th = makeThresholds(betas, 20);
        const list = pairList(s1, s1 + step, total);
        if (!list) return;
        const interval = validInterval(counts, th, list);
        for (let k = 0; k <= list.kLast; k++) {
          const { n1, n2 } = pairAt(list, k);
          const inside = interval !== null && k >= interval[0] && k <= interval[1];
          expect(inside).toBe(twoSizeValid(counts, th, s1, n1, s1 + step, n2));
        }
      }),
      { numRuns: 1500 },
    );
  });

  it('(b) TwoSizeBucketing finds the brute-force minimum loss, with every pruning mode', () => {
    fc.assert(
      fc.property(instance, ({ counts, betas }) => {
        expect(infeasibleValues(betas, counts)).toEqual([]);
        const th = makeThresholds(betas, S_MAX);
        const sMin = Math.min(minimumBucketSize(betas), S_MAX);
        const expected = bruteForceBest(counts, th, sMin, S_MAX);
        for (const pruning of ['full', 'loss', 'none'] as const) {
          const found = twoSizeBucketing(counts, th, sMin, S_MAX, { pruning });
          expect(found?.loss ?? null).toBe(expected);
          if (found) {
            const classes = [{ size: found.s1, count: found.n1 }, { size: found.s2, count: found.n2 }].filter((c) => c.count > 0);
            expect(multiSizeValid(counts, th, classes)).toBe(true);
          }
        }
      }),
      { numRuns: 250 },
    );
  });

  it('(c) every released bucket meets every β_v, also with fake values; multi-size never loses to two-size', () => {
    fc.assert(
      fc.property(instance, fc.integer(), ({ counts, betas }, seed) => {
        const th = makeThresholds(betas, S_MAX);
        const sMin = Math.min(minimumBucketSize(betas), S_MAX);
        const result = multiSizeBucketing(counts, th, sMin, S_MAX);
        const two = twoSizeBucketing(counts, th, sMin, S_MAX);
        if (!result) {
          expect(two).toBeNull();
          return;
        }
        expect(result.loss).toBeLessThanOrEqual(two!.loss);
        expect(multiSizeValid(counts, th, result.classes)).toBe(true);
        const values = Uint32Array.from(counts.flatMap((o, v) => Array(o).fill(v)));
        const source = new SeededTestRandomSource(seed);
        const b = materializeBuckets(source, values, counts.length, bucketsFromClasses(result.classes));
        for (let bucket = 0; bucket < b.bucketCount; bucket++) {
          const size = b.bucketSize[bucket]!;
          expect(size).toBeGreaterThanOrEqual(sMin);
          for (let e = b.stOffsets[bucket]!; e < b.stOffsets[bucket + 1]!; e++) {
            expect(b.stCount[e]!).toBeLessThanOrEqual(th.floorBetaTimes[b.stValue[e]!]![size]!);
          }
        }
        maxInference(b, counts.length).forEach((w, v) => expect(BigInt(w.count) * betas[v]!.den <= betas[v]!.num * BigInt(w.size)).toBe(true));
        // Each row's bucket lists its value: QIT and ST are consistent.
        for (let r = 0; r < values.length; r++) {
          const bucket = b.bucketOfRow[r]!;
          const listed = [...b.stValue.subarray(b.stOffsets[bucket]!, b.stOffsets[bucket + 1]!)];
          expect(listed).toContain(values[r]);
        }
        const free = counts.length - Math.max(...Array.from({ length: b.bucketCount }, (_, k) => b.stOffsets[k + 1]! - b.stOffsets[k]!));
        if (free >= 1) {
          const faked = addFakeValues(source, b, counts.length, 1);
          for (let bucket = 0; bucket < faked.bucketCount; bucket++) {
            const entries = [...faked.stValue.subarray(faked.stOffsets[bucket]!, faked.stOffsets[bucket + 1]!)];
            expect(new Set(entries).size).toBe(entries.length);
            const fakes = [...faked.stFake.subarray(faked.stOffsets[bucket]!, faked.stOffsets[bucket + 1]!)].filter((f) => f === 1);
            expect(fakes).toHaveLength(1);
          }
        }
      }),
      { numRuns: 200 },
    );
  });
});
