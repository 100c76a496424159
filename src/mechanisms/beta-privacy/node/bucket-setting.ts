import type { Rational } from '../../../common/exact/rational.js';
import { compare } from '../../../common/exact/rational.js';
import type { BucketSettingReport } from '../../../common/report/report-model.js';
import { JobError } from '../../../common/job/job-error.js';
import { anatomyGroups, anatomySizeOnlyLoss } from '../anatomy.js';
import type { BetaPrivacySpec } from '../definition.js';
import { multiSizeBucketing, type BucketClass } from '../multi-size.js';
import { partitionCounts } from '../partition.js';
import { ceilInverse, makeThresholds, minimumBucketSize } from '../thresholds.js';
import { bucketMse, squareLoss, twoSizeBucketing, type TwoSizeSetting } from '../two-size.js';

export function settingReport(algorithm: string, classes: readonly { size: number; count: number }[], total: number, feasible: boolean, note?: string): BucketSettingReport {
  const sizes: Record<string, number> = {};
  let loss = 0;
  for (const c of classes) {
    if (c.count === 0) continue;
    sizes[String(c.size)] = (sizes[String(c.size)] ?? 0) + c.count;
    loss += c.count * squareLoss(c.size);
  }
  return { algorithm, sizes, loss, mse: bucketMse(loss, total), feasible, ...(note ? { note } : {}) };
}

export function twoSizeClasses(counts: readonly number[], th: ReturnType<typeof makeThresholds>, best: TwoSizeSetting): BucketClass[] {
  if (best.n2 === 0) return [{ size: best.s1, count: best.n1, valueCounts: counts }];
  if (best.n1 === 0) return [{ size: best.s2, count: best.n2, valueCounts: counts }];
  const { first, second } = partitionCounts(counts, th, best);
  return [
    { size: best.s1, count: best.n1, valueCounts: first },
    { size: best.s2, count: best.n2, valueCounts: second },
  ];
}

/** The bucket sizes of the release and of the baselines it is compared with. */
export interface BucketSetting {
  readonly sMin: number;
  readonly sMax: number;
  readonly th: ReturnType<typeof makeThresholds>;
  readonly two: TwoSizeSetting | null;
  readonly multi: ReturnType<typeof multiSizeBucketing>;
  /** ℓ = ⌈1/min β⌉ of the Anatomy baseline, and its groups when ℓ-diversity is feasible. */
  readonly l: number;
  readonly anatomy: ReturnType<typeof anatomyGroups>;
  readonly anatomyReport: BucketSettingReport & { readonly l: number };
  /** The chosen algorithm's classes of buckets (null for Anatomy, whose groups are its buckets). */
  readonly chosenClasses: BucketClass[] | null;
  readonly chosen: BucketSettingReport;
}

/**
 * The valid bucket setting of least loss for the chosen algorithm (two sizes,
 * multi-size, or Anatomy), with the other two as baselines; a job error naming
 * the value that cannot be placed when none exists.
 */
export function chooseBucketSetting(spec: BetaPrivacySpec, values: readonly string[], counts: readonly number[], betas: readonly Rational[], total: number): BucketSetting {
  const sMin = spec.minBucket ?? minimumBucketSize(betas);
  const sMax = spec.maxBucket;
  if (sMin > sMax) throw new JobError(`the smallest usable bucket size is ${sMin} but maxBucket is ${sMax}`, 'method.maxBucket');
  const th = makeThresholds(betas, Math.max(sMax, 1));
  const two = twoSizeBucketing(counts, th, sMin, sMax);
  const multi = multiSizeBucketing(counts, th, sMin, sMax);
  // ℓ from the values present: a declared value no record holds is in no bucket (its β may be 0).
  const present = betas.filter((_, i) => counts[i]! > 0);
  let minBeta = present[0] ?? betas[0]!;
  for (const b of present) if (compare(b, minBeta) < 0) minBeta = b;
  const l = ceilInverse(minBeta);
  const anatomy = anatomyGroups(counts, l);
  const anatomyReport = {
    ...(anatomy
      ? settingReport('anatomy', anatomy.map((g) => ({ size: g.reduce((a, c) => a + c, 0), count: 1 })), total, true)
      : {
          algorithm: 'anatomy',
          sizes: {},
          loss: anatomySizeOnlyLoss(total, l, squareLoss),
          mse: bucketMse(anatomySizeOnlyLoss(total, l, squareLoss), total),
          feasible: false,
          note: `ℓ-diversity with ℓ = ${l} is infeasible (some value has f > 1/ℓ); loss from sizes ℓ and ℓ+1 ignoring privacy, as the paper does`,
        }),
    l,
  };
  let chosenClasses: BucketClass[] | null = null;
  if (spec.algorithm === 'two-size' && two) chosenClasses = twoSizeClasses(counts, th, two);
  if (spec.algorithm === 'multi-size' && multi) chosenClasses = multi.classes;
  if (spec.algorithm === 'anatomy' && !anatomy) {
    throw new JobError(`Anatomy needs ℓ-diversity with ℓ = ⌈1/min β⌉ = ${l}, which these data do not allow (some value has f > 1/ℓ)`, 'method.algorithm');
  }
  if (spec.algorithm !== 'anatomy' && !chosenClasses) {
    const unplaceable = values
      .flatMap((v, i) => (counts[i]! > 0 ? [{ v, need: ceilInverse(betas[i]!) }] : []))
      .filter((x) => x.need > sMax)
      .map((x) => `"${x.v}" needs buckets of at least ⌈1/β⌉ = ${x.need} records`);
    throw new JobError(
      `no valid bucket setting with sizes in [${sMin}, ${sMax}]` + (unplaceable.length ? `: ${unplaceable.join(', ')}` : '') + '; raise maxBucket or β',
      'method.maxBucket',
    );
  }
  // Anatomy's ℓ is drawn from the value counts (internal, with the baselines): the released setting is its buckets only.
  const { l: _anatomyL, ...anatomySetting } = anatomyReport;
  const chosen =
    spec.algorithm === 'anatomy'
      ? anatomySetting
      : settingReport(spec.algorithm, chosenClasses!, total, true);
  return { sMin, sMax, th, two, multi, l, anatomy, anatomyReport, chosenClasses, chosen };
}
