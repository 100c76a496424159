import { compare, mul, rational, type Rational } from '../../common/exact/rational.js';

/**
 * Per-value thresholds β_v as exact rationals, with ⌊β·s⌋ precomputed for
 * every bucket size the search can use.
 */
export interface BetaThresholds {
  readonly beta: readonly Rational[];
  /** floorBetaTimes[i][s] = ⌊β_i·s⌋ for 0 ≤ s ≤ maxSize. */
  readonly floorBetaTimes: readonly Int32Array[];
  readonly maxSize: number;
}

export function makeThresholds(beta: readonly Rational[], maxSize: number): BetaThresholds {
  // β = 0 only comes from the coefficient form for a declared value no record holds: ⌊0·s⌋ = 0 places none.
  for (const b of beta) {
    if (b.num < 0n || b.num > b.den) throw new RangeError('every β must lie in [0, 1]');
  }
  const floorBetaTimes = beta.map((b) => {
    const row = new Int32Array(maxSize + 1);
    for (let s = 0; s <= maxSize; s++) row[s] = Number((b.num * BigInt(s)) / b.den);
    return row;
  });
  return { beta, floorBetaTimes, maxSize };
}

/** β_v = min(1, c·o_v/|T|), the paper's experimental specification, exactly. */
export function coefficientBetas(coefficient: Rational, counts: readonly number[]): Rational[] {
  const total = BigInt(counts.reduce((a, b) => a + b, 0));
  const one = rational(1n);
  return counts.map((o) => {
    const b = mul(coefficient, rational(BigInt(o), total));
    return compare(b, one) > 0 ? one : b;
  });
}

/** ⌈1/β⌉ exactly. */
export function ceilInverse(beta: Rational): number {
  return Number((beta.den + beta.num - 1n) / beta.num);
}

/** Lemma 3.7: a β-private bucketization exists iff f_v ≤ β_v for every v. Returns the violators. */
export function infeasibleValues(beta: readonly Rational[], counts: readonly number[]): number[] {
  const total = BigInt(counts.reduce((a, b) => a + b, 0));
  const out: number[] = [];
  counts.forEach((o, i) => {
    if (BigInt(o) * beta[i]!.den > beta[i]!.num * total) out.push(i);
  });
  return out;
}

/** s_min = ⌈1/max β⌉: the smallest bucket that can hold a row of the least restrictive value. */
export function minimumBucketSize(beta: readonly Rational[]): number {
  let best = beta[0]!;
  for (const b of beta) if (compare(b, best) > 0) best = b;
  return ceilInverse(best);
}
