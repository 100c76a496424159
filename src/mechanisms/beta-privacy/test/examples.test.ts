import { describe, expect, it } from 'vitest';
import { anatomyGroups } from '../anatomy.js';
import { worstPosterior, fakesNeeded } from '../corruption-attack.js';
import { multiSizeValid } from '../max-flow.js';
import { materialize, pairList } from '../pair-list.js';
import { partitionCounts, roundRobin } from '../partition.js';
import { ceilInverse, coefficientBetas, infeasibleValues, makeThresholds, minimumBucketSize } from '../thresholds.js';
import { bucketMse, twoSizeBucketing, twoSizeValid } from '../two-size.js';
import { formatRational, parseRational, rational } from '../../../common/exact/rational.js';

const r = parseRational;
const names = (bucket: Int32Array, label = (i: number) => `x${i + 1}`): string[] =>
  [...bucket].flatMap((count, i) => Array.from({ length: count }, () => label(i)));

describe('pair lists L(s1, s2)', () => {
  it('Example 5.23: s1 = 2, s2 = 4, |T| = 28', () => {
    expect(materialize(pairList(2, 4, 28))).toEqual([[14, 0], [12, 1], [10, 2], [8, 3], [6, 4], [4, 5], [2, 6], [0, 7]]);
  });
  it('further lists, including empty ones', () => {
    expect(materialize(pairList(3, 5, 50))).toEqual([[15, 1], [10, 4], [5, 7], [0, 10]]);
    expect(pairList(6, 10, 101)).toBeNull();
    expect(pairList(4, 6, 2)).toBeNull();
    const list = materialize(pairList(7, 11, 1000));
    expect(list).toHaveLength(13);
    expect(list[0]).toEqual([135, 5]);
    expect(list[1]).toEqual([124, 12]);
    expect(list[12]).toEqual([3, 89]);
  });
});

describe('Example 4.20: two-size validation, partition and RRA', () => {
  const counts = [1, 1, 1, 1, 1, 1, 6, 6, 6, 13, 13];
  const betas = [...Array(6).fill(r('1/2')), ...Array(3).fill(r('1/3')), r('2/7'), r('2/7')];
  const th = makeThresholds(betas, 10);

  it('PC, FC and CC hold for (4,9),(7,2)', () => {
    expect(twoSizeValid(counts, th, 4, 9, 7, 2)).toBe(true);
    expect(twoSizeValid(counts, th, 4, 9, 7, 1)).toBe(false);
  });

  it('moves one row of each of x1–x6 and deals buckets as in the spec', () => {
    const { first, second } = partitionCounts(counts, th, { s1: 4, n1: 9, s2: 7, n2: 2, loss: 242 });
    expect(first).toEqual([0, 0, 0, 0, 0, 0, 6, 6, 6, 9, 9]);
    expect(second).toEqual([1, 1, 1, 1, 1, 1, 0, 0, 0, 4, 4]);
    const t1 = roundRobin(first, 9).map((b) => names(b));
    expect(t1.slice(0, 3)).toEqual(Array(3).fill(['x7', 'x8', 'x10', 'x11']));
    expect(t1.slice(3, 6)).toEqual(Array(3).fill(['x7', 'x9', 'x10', 'x11']));
    expect(t1.slice(6, 9)).toEqual(Array(3).fill(['x8', 'x9', 'x10', 'x11']));
    const t2 = roundRobin(second, 2).map((b) => names(b));
    expect(t2).toEqual([
      ['x1', 'x3', 'x5', 'x10', 'x10', 'x11', 'x11'],
      ['x2', 'x4', 'x6', 'x10', 'x10', 'x11', 'x11'],
    ]);
  });

  it('TwoSizeBucketing in [2,10] returns (4,9,7,2) with loss 242 under every pruning mode', () => {
    for (const pruning of ['full', 'loss', 'none'] as const) {
      expect(twoSizeBucketing(counts, th, 2, 10, { pruning })).toEqual({ s1: 4, n1: 9, s2: 7, n2: 2, loss: 242 });
    }
    // The paper's MSE of that setting, from the loss the search returns: 242/50 − 1.
    const best = twoSizeBucketing(counts, th, 2, 10, { pruning: 'full' })!;
    expect(bucketMse(best.loss, counts.reduce((a, b) => a + b, 0))).toBeCloseTo(3.84, 12);
  });
});

describe('Example 5.32: the naive three-size test is not sufficient', () => {
  it('PC, FC and CC extended to three sizes hold, yet max-flow finds no valid assignment', () => {
    const counts = [...Array(10).fill(5), 20];
    const betas = [...Array(10).fill(r('1/5')), r('1')];
    const th = makeThresholds(betas, 10);
    const classes = [{ size: 2, count: 10 }, { size: 4, count: 5 }, { size: 5, count: 6 }];
    const pc = counts.every((o, i) => o <= classes.reduce((sum, c) => sum + th.floorBetaTimes[i]![c.size]! * c.count, 0));
    const fc = classes.every((c) => counts.reduce((sum, o, i) => sum + Math.min(th.floorBetaTimes[i]![c.size]! * c.count, o), 0) >= c.size * c.count);
    const cc = classes.reduce((sum, c) => sum + c.size * c.count, 0) === 70;
    expect([pc, fc, cc]).toEqual([true, true, true]);
    expect(multiSizeValid(counts, th, classes)).toBe(false);
    expect(multiSizeValid(counts, th, [{ size: 5, count: 14 }])).toBe(true);
  });
});

describe('feasibility, coefficient β, RRA and Anatomy examples', () => {
  it('Lemma 3.7 names x2 only (x5 sits exactly at its limit)', () => {
    const counts = [30, 25, 20, 15, 10];
    expect(infeasibleValues([r('0.3'), r('0.2'), r('0.25'), r('0.2'), r('0.1')], counts)).toEqual([1]);
    const betas = coefficientBetas(rational(2n), counts);
    expect(betas.map(formatRational)).toEqual(['3/5', '1/2', '2/5', '3/10', '1/5']);
    expect(ceilInverse(betas[4]!)).toBe(5);
    expect(minimumBucketSize(betas)).toBe(2);
    expect(anatomyGroups(counts, 5)).toBeNull();
    expect(infeasibleValues(betas, counts)).toEqual([]);
  });

  it('RRA with cumulative offsets: counts (4,3,2,3), 4 buckets of 3', () => {
    expect(roundRobin([4, 3, 2, 3], 4).map((b) => names(b))).toEqual([
      ['x1', 'x2', 'x3'],
      ['x1', 'x2', 'x4'],
      ['x1', 'x2', 'x4'],
      ['x1', 'x3', 'x4'],
    ]);
  });

  it('Anatomy: counts (3,3,2,2,1), ℓ = 3', () => {
    expect(anatomyGroups([3, 3, 2, 2, 1], 3)!.map((g) => names(g))).toEqual([
      ['x1', 'x2', 'x3', 'x4'],
      ['x1', 'x2', 'x4', 'x5'],
      ['x1', 'x2', 'x3'],
    ]);
  });

  it('⌈1/β⌉ is exact where doubles are not', () => {
    expect(Math.ceil(1 / (2 / 30162))).toBe(15082);
    expect(ceilInverse(rational(2n, 30162n))).toBe(15081);
  });
});

describe('corruption attack', () => {
  it('distinct values: 1/(|B| + k − c)', () => {
    const distinct = (n: number) => Array(n).fill(1);
    expect(worstPosterior(distinct(5), 0, 4)).toBe(1);
    expect(worstPosterior(distinct(5), 2, 4)).toBeCloseTo(1 / 3, 12);
    expect(worstPosterior(distinct(5), 2, 0)).toBeCloseTo(1 / 7, 12);
    expect(worstPosterior(distinct(10), 3, 7)).toBeCloseTo(1 / 6, 12);
  });
  it('fakes needed for β under c corruptions', () => {
    expect(fakesNeeded(4, 5, 4)).toBe(3);
    expect(fakesNeeded(5, 5, 2)).toBe(2);
    expect(fakesNeeded(2, 3, 2)).toBe(1);
  });
  it('a repeated value is certainly real', () => {
    expect(worstPosterior([3, 1, 1], 2, 0)).toBeCloseTo(3 / 5, 12);
    expect(worstPosterior([3, 1, 1], 2, 2)).toBe(1);
  });
});

describe('fake values respect declared negative associations', () => {
  it('never uses a value that some row of the bucket rules out', async () => {
    const { addFakeValues } = await import('../fake-values.js');
    const { materializeBuckets, matrixFromBuckets } = await import('../bucketize.js');
    const { SeededTestRandomSource } = await import('../../../common/random/source.js');
    const values = Uint32Array.from([0, 1, 2, 3]);
    const b = materializeBuckets(new SeededTestRandomSource(1), values, 6, matrixFromBuckets([Int32Array.from([1, 1, 0, 0, 0, 0]), Int32Array.from([0, 0, 1, 1, 0, 0])], 6));
    for (let seed = 0; seed < 30; seed++) {
      const faked = addFakeValues(new SeededTestRandomSource(seed), b, 6, 1, () => new Set([4]));
      for (let bucket = 0; bucket < 2; bucket++) {
        const listed = [...faked.stValue.subarray(faked.stOffsets[bucket]!, faked.stOffsets[bucket + 1]!)];
        const fakes = listed.filter((_, k) => faked.stFake[faked.stOffsets[bucket]! + k]);
        expect(fakes).toHaveLength(1);
        expect(fakes[0]).not.toBe(4);
        expect(new Set(listed).size).toBe(3);
      }
    }
    expect(() => addFakeValues(new SeededTestRandomSource(2), b, 6, 4, () => new Set([4]))).toThrow(/leaves only 3 candidate/);
  });
});
