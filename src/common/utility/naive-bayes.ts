/**
 * A categorical naive Bayes classifier with Laplace smoothing, trained from counts: the target's
 * count per class and, per feature, the count of each (feature value, class) pair. Nothing else is
 * needed, which is why it is the learner of the analysis-based utility (analysis.ts): a release
 * read as weights (src/common/compare/released-records.ts) gives exactly these counts, estimated,
 * without knowing which released record is which input record.
 *
 * Model, for classes y = 0..Y−1 and feature j with values x = 0..B_j−1, smoothing α (1: Laplace):
 *   P(y)       = (N_y + α) / (N + α·Y)
 *   P(x_j | y) = (N_{j,x,y} + α) / (N_{j,·,y} + α·B_j)
 * with N_{j,·,y} = Σ_x N_{j,x,y} (a record missing feature j does not count there). A record is
 * classed as the y with the largest log P(y) + Σ_j log P(x_j | y) over its non-missing features;
 * ties go to the smallest y, so a prediction is a function of the counts alone. Counts may be
 * fractional (a generalized value spread over the values it covers) or, read through randomized
 * response's unbiased estimator, negative: a negative count is taken as 0 (no probability is below 0).
 */

/** Missing feature value: the feature is left out of the record's score. */
export const MISSING_BIN = -1;

export interface NaiveBayesCounts {
  readonly classes: number;
  /** By class: N_y. */
  readonly classCounts: Float64Array;
  /** Per feature: its number of values B_j and counts[x·classes + y] = N_{j,x,y}. */
  readonly features: readonly { readonly values: number; readonly counts: Float64Array }[];
}

export interface NaiveBayesModel {
  readonly classes: number;
  /** log P(y). */
  readonly logPrior: Float64Array;
  /** Per feature: logLikelihood[x·classes + y] = log P(x | y). */
  readonly logLikelihood: readonly Float64Array[];
}

/** Empty counts for these feature sizes. */
export function emptyCounts(classes: number, featureValues: readonly number[]): NaiveBayesCounts {
  return { classes, classCounts: new Float64Array(classes), features: featureValues.map((values) => ({ values, counts: new Float64Array(values * classes) })) };
}

/** Adds `weight` records of class y with these feature values (MISSING_BIN where missing). */
export function addRecord(counts: NaiveBayesCounts, features: ArrayLike<number>, y: number, weight = 1): void {
  counts.classCounts[y]! += weight;
  counts.features.forEach((f, j) => {
    const x = features[j]!;
    if (x !== MISSING_BIN) f.counts[x * counts.classes + y]! += weight;
  });
}

/** a − b, cell by cell (the counts of every record but a fold's). */
export function subtractCounts(a: NaiveBayesCounts, b: NaiveBayesCounts): NaiveBayesCounts {
  return {
    classes: a.classes,
    classCounts: a.classCounts.map((v, i) => v - b.classCounts[i]!),
    features: a.features.map((f, j) => ({ values: f.values, counts: f.counts.map((v, i) => v - b.features[j]!.counts[i]!) })),
  };
}

const positive = (v: number): number => (v > 0 ? v : 0);

export function trainNaiveBayes(counts: NaiveBayesCounts, alpha = 1): NaiveBayesModel {
  const Y = counts.classes;
  let total = 0;
  for (const v of counts.classCounts) total += positive(v);
  const logPrior = Float64Array.from(counts.classCounts, (v) => Math.log((positive(v) + alpha) / (total + alpha * Y)));
  const logLikelihood = counts.features.map((f) => {
    const byClass = new Float64Array(Y);
    for (let x = 0; x < f.values; x++) for (let y = 0; y < Y; y++) byClass[y]! += positive(f.counts[x * Y + y]!);
    const out = new Float64Array(f.values * Y);
    for (let x = 0; x < f.values; x++) for (let y = 0; y < Y; y++) out[x * Y + y] = Math.log((positive(f.counts[x * Y + y]!) + alpha) / (byClass[y]! + alpha * f.values));
    return out;
  });
  return { classes: Y, logPrior, logLikelihood };
}

/** The class with the largest posterior score; the smallest class index among equal scores. */
export function predict(model: NaiveBayesModel, features: ArrayLike<number>): number {
  const Y = model.classes;
  let best = 0;
  let bestScore = -Infinity;
  for (let y = 0; y < Y; y++) {
    let score = model.logPrior[y]!;
    for (let j = 0; j < model.logLikelihood.length; j++) {
      const x = features[j]!;
      if (x !== MISSING_BIN) score += model.logLikelihood[j]![x * Y + y]!;
    }
    if (score > bestScore) {
      bestScore = score;
      best = y;
    }
  }
  return best;
}
