import { partitionCounts } from './partition.js';
import type { BetaThresholds } from './thresholds.js';
import { squareLoss, twoSizeBucketing, type BucketLoss, type Pruning, type SearchStats } from './two-size.js';

/** A group of equally sized buckets and the value counts they share (one-size valid). */
export interface BucketClass {
  readonly size: number;
  readonly count: number;
  readonly valueCounts: readonly number[];
}

export interface MultiSizeResult {
  readonly classes: BucketClass[];
  readonly loss: number;
  readonly calls: number;
  readonly depth: number;
}

/**
 * MultiSizeBucketing (Algorithm 2 of Wang, Wang, Fu, Wong (β-privacy)): split along the best two-size
 * setting while it lowers the loss; every leaf is one-size valid, so their
 * union is valid. Works on value counts: rows of one value are interchangeable.
 */
export function multiSizeBucketing(
  counts: readonly number[],
  th: BetaThresholds,
  sMin: number,
  sMax: number,
  options: { pruning?: Pruning; loss?: BucketLoss; stats?: SearchStats } = {},
): MultiSizeResult | null {
  const g = options.loss ?? squareLoss;
  let calls = 0;
  let depth = 0;
  const recurse = (values: readonly number[], size: number, count: number, level: number, known?: ReturnType<typeof twoSizeBucketing>): BucketClass[] => {
    depth = Math.max(depth, level);
    calls++;
    const best = known ?? twoSizeBucketing(values, th, sMin, sMax, options);
    if (!best || best.loss >= count * g(size)) return [{ size, count, valueCounts: values }];
    if (best.n2 === 0) return [{ size: best.s1, count: best.n1, valueCounts: values }];
    if (best.n1 === 0) return [{ size: best.s2, count: best.n2, valueCounts: values }];
    const { first, second } = partitionCounts(values, th, best);
    return [...recurse(first, best.s1, best.n1, level + 1), ...recurse(second, best.s2, best.n2, level + 1)];
  };
  const total = counts.reduce((a, b) => a + b, 0);
  const top = twoSizeBucketing(counts, th, sMin, sMax, options);
  if (!top) return null;
  // The initial call treats the table as one virtual bucket of size |T|, never output.
  const classes = recurse(counts, total, 1, 0, top);
  return { classes, loss: classes.reduce((sum, c) => sum + c.count * g(c.size), 0), calls, depth };
}
