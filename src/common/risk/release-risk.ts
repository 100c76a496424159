/**
 * The population-based risk figures the disclosure review states of a released file and checks against
 * the job's thresholds (issue 36): the highest and average individual risk (Benedetti–Franconi, as
 * sdcMicro's measure_risk) and the k-map (journalist) risk, each class of f released records standing
 * for f / π people, π the sampling fraction the job states (review.samplingFraction, or the released
 * records over review.populationSize).
 *
 * Only the class sizes and π enter: the figures are a function of the released file and the job, so
 * verify computes them again from the release folder (a release carries no case weights; the internal
 * report's risk profile uses the input's weights where it has them, src/common/risk/risk-profile.ts).
 */
import { benedettiFranconiRisk } from './individual-risk.js';

export interface ReleasedRiskFigures {
  /** The highest Benedetti–Franconi risk of a released record (pk = π in every class). */
  readonly individualRiskHighest: number;
  /** Its mean over the released records (absent in a projection, which knows the smallest class only). */
  readonly individualRiskAverage?: number;
  /** k of k-map: the fewest estimated people, smallest class / π. */
  readonly kMapK: number;
  /** The journalist's risk of the records in that class: π / smallest class. */
  readonly kMapRiskHighest: number;
  /** Mean over the released records of π / their class size. */
  readonly kMapRiskAverage?: number;
}

/**
 * From the number of released records per class size (per record count of matches when released
 * values may be wildcards): `recordsBySize.get(f)` records are in a class of f.
 */
export function releasedRiskFigures(recordsBySize: ReadonlyMap<number, number>, fraction: number): ReleasedRiskFigures {
  if (!(fraction > 0 && fraction <= 1)) throw new RangeError(`sampling fraction ${fraction} is not in (0, 1]`);
  let records = 0;
  let smallest = Infinity;
  let individualSum = 0;
  let individualHighest = 0;
  let kMapSum = 0;
  for (const [size, count] of recordsBySize) {
    if (count === 0) continue;
    const risk = benedettiFranconiRisk(size, size / fraction);
    records += count;
    smallest = Math.min(smallest, size);
    individualSum += count * risk;
    individualHighest = Math.max(individualHighest, risk);
    kMapSum += (count * fraction) / size;
  }
  if (records === 0) return { individualRiskHighest: 0, individualRiskAverage: 0, kMapK: 0, kMapRiskHighest: 0, kMapRiskAverage: 0 };
  return { individualRiskHighest: individualHighest, individualRiskAverage: individualSum / records, kMapK: smallest / fraction, kMapRiskHighest: fraction / smallest, kMapRiskAverage: kMapSum / records };
}

/** In a projection only the smallest class is known: the highest figures (both fall as the class grows). */
export function projectedRiskFigures(smallestClass: number, fraction: number): ReleasedRiskFigures {
  const { individualRiskHighest, kMapK, kMapRiskHighest } = releasedRiskFigures(new Map([[smallestClass, 1]]), fraction);
  return { individualRiskHighest, kMapK, kMapRiskHighest };
}

export interface RiskThresholds {
  readonly maxIndividualRisk?: number;
  readonly maxKMapRisk?: number;
}

export interface RiskThresholdCheck {
  readonly check: 'individual-risk' | 'k-map';
  readonly passed: boolean;
  readonly finding: string;
}

/** The checks of the thresholds the job states, over the released files' figures (the worst file decides). */
export function riskThresholdChecks(files: readonly { readonly file: string; readonly figures?: ReleasedRiskFigures }[], thresholds: RiskThresholds): RiskThresholdCheck[] {
  const checks: RiskThresholdCheck[] = [];
  const stated = files.filter((f): f is { file: string; figures: ReleasedRiskFigures } => f.figures !== undefined);
  const worst = (of: (f: ReleasedRiskFigures) => number) => stated.reduce<(typeof stated)[number] | undefined>((w, f) => (w === undefined || of(f.figures) > of(w.figures) ? f : w), undefined);
  if (thresholds.maxIndividualRisk !== undefined) {
    const w = worst((f) => f.individualRiskHighest);
    checks.push(
      w
        ? { check: 'individual-risk', passed: w.figures.individualRiskHighest <= thresholds.maxIndividualRisk, finding: `highest individual risk ${w.figures.individualRiskHighest.toFixed(4)} in ${w.file} (Benedetti–Franconi, each released record standing for 1/π people)${w.figures.individualRiskAverage !== undefined ? `, ${w.figures.individualRiskAverage.toFixed(4)} on average` : ''}, limit ${thresholds.maxIndividualRisk}` }
        : { check: 'individual-risk', passed: true, finding: 'no quasi-identifier is released: no record can be matched on them' },
    );
  }
  if (thresholds.maxKMapRisk !== undefined) {
    const w = worst((f) => f.kMapRiskHighest);
    checks.push(
      w
        ? { check: 'k-map', passed: w.figures.kMapRiskHighest <= thresholds.maxKMapRisk, finding: `highest k-map (journalist) risk ${w.figures.kMapRiskHighest.toFixed(4)} in ${w.file}: its smallest class stands for an estimated ${w.figures.kMapK.toFixed(1)} people, limit ${thresholds.maxKMapRisk}` }
        : { check: 'k-map', passed: true, finding: 'no quasi-identifier is released: no record can be matched on them' },
    );
  }
  return checks;
}
