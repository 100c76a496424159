import type { BetaThresholds } from './thresholds.js';
import type { TwoSizeSetting } from './two-size.js';

/**
 * Record partitioning (spec §C.7) on value counts: T1 takes u_i1 rows of each
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
  const out = Array.from({ length: buckets }, () => new Int32Array(counts.length));
  let offset = 0;
  counts.forEach((o, i) => {
    const whole = Math.floor(o / buckets);
    const rest = o % buckets;
    for (let b = 0; b < buckets; b++) out[b]![i] = whole;
    for (let j = 0; j < rest; j++) out[(offset + j) % buckets]![i]!++;
    offset = (offset + o) % buckets;
  });
  return out;
}
