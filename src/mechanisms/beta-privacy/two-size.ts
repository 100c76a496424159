import { pairAt, pairList, type PairList } from './pair-list.js';
import type { BetaThresholds } from './thresholds.js';

/** Per-bucket loss g(s); any g with g(s)/s strictly increasing works. Default s². */
export type BucketLoss = (size: number) => number;
export const squareLoss: BucketLoss = (s) => s * s;

/**
 * The mean squared error of frequency estimates from buckets whose square
 * losses sum to `loss` over `records` records (Wang, Wang, Fu, Wong (β-privacy), §5: MSE = Σ|B|²/n − 1,
 * 0 for buckets of one record).
 */
export function bucketMse(loss: number, records: number): number {
  return loss / records - 1;
}

export interface TwoSizeSetting {
  readonly s1: number;
  readonly n1: number;
  readonly s2: number;
  readonly n2: number;
  readonly loss: number;
}

export type Pruning = 'full' | 'loss' | 'none';

export interface SearchStats {
  sizePairs: number;
  skippedByLoss: number;
  validityChecks: number;
}

/** Lemma 4.13(4): b buckets of size s are valid iff o_i ≤ ⌊β_i·s⌋·b for every i, and s·b = |T|. */
export function oneSizeValid(counts: readonly number[], th: BetaThresholds, s: number, b: number): boolean {
  const total = counts.reduce((a, c) => a + c, 0);
  if (s * b !== total) return false;
  return counts.every((o, i) => o <= th.floorBetaTimes[i]![s]! * b);
}

/** Theorem 4.17: PC, FC (both sizes) and CC. */
export function twoSizeValid(counts: readonly number[], th: BetaThresholds, s1: number, n1: number, s2: number, n2: number): boolean {
  const total = counts.reduce((a, c) => a + c, 0);
  if (s1 * n1 + s2 * n2 !== total) return false;
  let fill1 = 0;
  let fill2 = 0;
  for (let i = 0; i < counts.length; i++) {
    const o = counts[i]!;
    const a1 = th.floorBetaTimes[i]![s1]! * n1;
    const a2 = th.floorBetaTimes[i]![s2]! * n2;
    if (o > a1 + a2) return false;
    fill1 += Math.min(a1, o);
    fill2 += Math.min(a2, o);
  }
  return fill1 >= s1 * n1 && fill2 >= s2 * n2;
}

function fill(counts: readonly number[], th: BetaThresholds, s: number, n: number): boolean {
  let sum = 0;
  for (let i = 0; i < counts.length; i++) sum += Math.min(th.floorBetaTimes[i]![s]! * n, counts[i]!);
  return sum >= s * n;
}

/**
 * The valid positions of L as one interval [kLo, kHi] (Theorem 5.30): FC1 holds
 * on a suffix, FC2 on a prefix (binary searches), each PC_i on a closed-form
 * prefix or suffix.
 */
export function validInterval(counts: readonly number[], th: BetaThresholds, list: PairList, stats?: SearchStats): [number, number] | null {
  let lo = 0;
  let hi = list.kLast;
  const { s1, s2, n1First, n2First, d1, d2 } = list;
  for (let i = 0; i < counts.length; i++) {
    const c1 = th.floorBetaTimes[i]![s1]!;
    const c2 = th.floorBetaTimes[i]![s2]!;
    const o = counts[i]!;
    const r0 = c1 * n1First + c2 * n2First;
    const slope = c2 * d2 - c1 * d1;
    if (slope > 0) {
      if (o > r0) lo = Math.max(lo, Math.ceil((o - r0) / slope));
    } else if (slope < 0) {
      if (o > r0) return null;
      hi = Math.min(hi, Math.floor((r0 - o) / -slope));
    } else if (o > r0) return null;
    if (lo > hi) return null;
  }
  const probe = (k: number, which: 1 | 2): boolean => {
    if (stats) stats.validityChecks++;
    const { n1, n2 } = pairAt(list, k);
    return which === 1 ? fill(counts, th, s1, n1) : fill(counts, th, s2, n2);
  };
  // FC1: smallest k in [lo, hi] where it holds (monotone along L).
  if (!probe(hi, 1)) return null;
  let a = lo;
  let b = hi;
  while (a < b) {
    const mid = (a + b) >> 1;
    if (probe(mid, 1)) b = mid;
    else a = mid + 1;
  }
  lo = a;
  // FC2: largest k in [lo, hi] where it holds (anti-monotone along L).
  if (!probe(lo, 2)) return null;
  a = lo;
  b = hi;
  while (a < b) {
    const mid = (a + b + 1) >> 1;
    if (probe(mid, 2)) a = mid;
    else b = mid - 1;
  }
  return [lo, a];
}

/**
 * TwoSizeBucketing (Algorithm 1 of Wang, Wang, Fu, Wong (β-privacy)): the minimum-loss valid setting
 * with one or two bucket sizes in [sMin, sMax], or null when none exists.
 * Ties keep the first found (smallest s1, then s2, then largest n1).
 */
export function twoSizeBucketing(
  counts: readonly number[],
  th: BetaThresholds,
  sMin: number,
  sMax: number,
  options: { pruning?: Pruning; loss?: BucketLoss; stats?: SearchStats } = {},
): TwoSizeSetting | null {
  const g = options.loss ?? squareLoss;
  const pruning = options.pruning ?? 'full';
  const stats = options.stats;
  const total = counts.reduce((a, c) => a + c, 0);
  if (sMin > sMax || sMax > th.maxSize) throw new RangeError('bucket sizes out of range');
  if (sMin === sMax) {
    const b = total / sMin;
    return Number.isInteger(b) && oneSizeValid(counts, th, sMin, b) ? { s1: sMin, n1: b, s2: sMin, n2: 0, loss: b * g(sMin) } : null;
  }
  let best: TwoSizeSetting | null = null;
  for (let s1 = sMin; s1 <= sMax; s1++) {
    for (let s2 = s1 + 1; s2 <= sMax; s2++) {
      const list = pairList(s1, s2, total);
      if (!list) continue;
      if (stats) stats.sizePairs++;
      const loss0 = list.n1First * g(s1) + list.n2First * g(s2);
      const step = list.d2 * g(s2) - list.d1 * g(s1);
      let kCut = list.kLast;
      if (best && pruning !== 'none') {
        if (loss0 >= best.loss) {
          if (stats) stats.skippedByLoss++;
          continue;
        }
        kCut = Math.min(kCut, Math.ceil((best.loss - loss0) / step) - 1);
      }
      let found = -1;
      if (pruning === 'full') {
        const interval = validInterval(counts, th, list, stats);
        if (interval && interval[0] <= Math.min(interval[1], kCut)) found = interval[0];
      } else {
        for (let k = 0; k <= kCut; k++) {
          const { n1, n2 } = pairAt(list, k);
          if (stats) stats.validityChecks++;
          if (twoSizeValid(counts, th, s1, n1, s2, n2)) {
            found = k;
            break;
          }
        }
      }
      if (found < 0) continue;
      const loss = loss0 + found * step;
      if (!best || loss < best.loss) {
        const { n1, n2 } = pairAt(list, found);
        best = { s1, n1, s2, n2, loss };
      }
    }
  }
  return best;
}
