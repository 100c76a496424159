import type { BetaThresholds } from './thresholds.js';
import type { TwoSizeSetting } from './two-size.js';

/**
 * Record partitioning on value counts: T1 takes u_i1 rows of each
 * value, then rows move to T2 (values in ascending order) until |T1| = s1·n1.
 * Both parts are then one-size valid.
 */
export function partitionCounts(counts: readonly number[], th: BetaThresholds, setting: TwoSizeSetting): { first: number[]; second: number[] } {
  const { s1, n1, s2, n2 } = setting;
  const first = counts.map((o, i) => Math.min(th.floorBetaTimes[i]![s1]! * n1, o));
  const second = counts.map((o, i) => o - first[i]!);
  let excess = first.reduce((a, b) => a + b, 0) - s1 * n1;
  for (let i = 0; i < counts.length && excess > 0; i++) {
    const room = Math.min(th.floorBetaTimes[i]![s2]! * n2, counts[i]!) - second[i]!;
    const move = Math.min(Math.max(0, room), excess, first[i]!);
    first[i]! -= move;
    second[i]! += move;
    excess -= move;
  }
  if (excess !== 0) throw new Error('record partitioning failed: the setting is not valid');
  return { first, second };
}

/**
 * Round-robin assignment (Lemma 4.13): the j-th row of value i goes to bucket
 * (O_{i−1} + j) mod b, with O the cumulative count of earlier values. Returns
 * per bucket the count of each value.
 */
export function roundRobin(counts: readonly number[], buckets: number): Int32Array[] {
  const m = counts.length;
  const flat = new Int32Array(buckets * m);
  roundRobinInto(flat, 0, counts, buckets);
  return Array.from({ length: buckets }, (_, b) => flat.subarray(b * m, (b + 1) * m));
}

/** roundRobin into a flat bucket × value matrix, starting at bucket row `first`. */
export function roundRobinInto(flat: Int32Array, first: number, counts: readonly number[], buckets: number): void {
  const m = counts.length;
  let offset = 0;
  counts.forEach((o, i) => {
    const whole = Math.floor(o / buckets);
    const rest = o % buckets;
    if (whole > 0) for (let b = 0; b < buckets; b++) flat[(first + b) * m + i] = whole;
    for (let j = 0; j < rest; j++) flat[(first + ((offset + j) % buckets)) * m + i]!++;
    offset = (offset + o) % buckets;
  });
}
