/**
 * The individual risk the disclosure review states of a released file and checks against the job's
 * `review.maxIndividualRisk` (issue 36): the highest and average Benedetti–Franconi risk (as sdcMicro's
 * measure_risk), each class of f released records standing for f / π people, π the sampling fraction
 * the job states (review.samplingFraction, or the released records over review.populationSize).
 *
 * Only the class sizes and π enter: the figures are a function of the released file and the job, so
 * verify computes them again from the release folder (a release carries no case weights; the internal
 * report's risk profile uses the input's weights where it has them, src/common/risk/risk-profile.ts).
 * The journalist (k-map) risk of the same classes is the review's own (review.maxJournalistRisk).
 */
import { benedettiFranconiRisk } from './individual-risk.js';

export interface ReleasedRiskFigures {
  /** The highest Benedetti–Franconi risk of a released record (pk = π in every class). */
  readonly individualRiskHighest: number;
  /** Its mean over the released records (absent in a projection, which knows the smallest class only). */
  readonly individualRiskAverage?: number;
}

/**
 * From the number of released records per class size (per record count of matches when released
 * values may be wildcards): `recordsBySize.get(f)` records are in a class of f.
 */
export function releasedRiskFigures(recordsBySize: ReadonlyMap<number, number>, fraction: number): ReleasedRiskFigures {
  if (!(fraction > 0 && fraction <= 1)) throw new RangeError(`sampling fraction ${fraction} is not in (0, 1]`);
  let records = 0;
  let sum = 0;
  let highest = 0;
  for (const [size, count] of recordsBySize) {
    if (count === 0) continue;
    const risk = benedettiFranconiRisk(size, size / fraction);
    records += count;
    sum += count * risk;
    highest = Math.max(highest, risk);
  }
  return { individualRiskHighest: highest, individualRiskAverage: records === 0 ? 0 : sum / records };
}

/** In a projection only the smallest class is known: the highest risk (it falls as the class grows). */
export function projectedRiskFigures(smallestClass: number, fraction: number): ReleasedRiskFigures {
  return { individualRiskHighest: releasedRiskFigures(new Map([[smallestClass, 1]]), fraction).individualRiskHighest };
}

export interface RiskThresholdCheck {
  readonly check: 'individual-risk';
  readonly passed: boolean;
  readonly finding: string;
}

/** The check of `maxIndividualRisk` over the released files' figures (the worst file decides); none without the threshold. */
export function riskThresholdChecks(files: readonly { readonly file: string; readonly figures?: ReleasedRiskFigures }[], thresholds: { readonly maxIndividualRisk?: number }): RiskThresholdCheck[] {
  const limit = thresholds.maxIndividualRisk;
  if (limit === undefined) return [];
  const stated = files.filter((f): f is { file: string; figures: ReleasedRiskFigures } => f.figures !== undefined);
  const w = stated.reduce<(typeof stated)[number] | undefined>((worst, f) => (worst === undefined || f.figures.individualRiskHighest > worst.figures.individualRiskHighest ? f : worst), undefined);
  if (!w) return [{ check: 'individual-risk', passed: true, finding: 'no quasi-identifier is released: no record can be matched on them' }];
  const { individualRiskHighest: highest, individualRiskAverage: average } = w.figures;
  return [
    {
      check: 'individual-risk',
      passed: highest <= limit,
      finding: `highest individual risk ${highest.toFixed(4)} in ${w.file} (Benedetti–Franconi, each released record standing for 1/π people)${average !== undefined ? `, ${average.toFixed(4)} on average` : ''}, limit ${limit}`,
    },
  ];
}
