/**
 * k-map (Sweeney; El Emam & Dankar 2008): the journalist's re-identification risk, where a sample
 * record is matched against the population, so a record's risk is 1 / F, F the number of people in
 * the population who share its quasi-identifiers. The release is k-map for k = min F.
 */

/** A sample equivalence class: its records in the sample and the people sharing its values in the population. */
export interface MappedClass {
  readonly sampleSize: number;
  readonly populationSize: number;
}

export interface KMapRisk {
  /** min F over the sample's classes: the release satisfies k-map for every k up to this. */
  readonly k: number;
  /** 1 / k: the risk of the records in the class with the fewest people in the population. */
  readonly journalistHighest: number;
  /** Mean over sample records of 1 / F of their class: Σ f / F / n. */
  readonly journalistAverage: number;
  /** Share of sample records whose class has F = k. */
  readonly recordsAtHighestRisk: number;
  readonly records: number;
}

/**
 * k-map from a population table: each sample class's population count is given (a census
 * tabulation, a register). A population count smaller than the sample's is refused: the sample
 * must be part of the population.
 */
export function kMapWithPopulation(classes: readonly MappedClass[]): KMapRisk {
  let records = 0;
  let k = Infinity;
  for (const [index, { sampleSize, populationSize }] of classes.entries()) {
    if (!Number.isInteger(sampleSize) || sampleSize < 1) throw new RangeError(`class ${index}: sample size must be a whole number ≥ 1, got ${sampleSize}`);
    if (!(populationSize >= sampleSize)) throw new RangeError(`class ${index}: population count ${populationSize} is smaller than the sample's ${sampleSize}`);
    records += sampleSize;
    k = Math.min(k, populationSize);
  }
  if (records === 0) return { k: 0, journalistHighest: 0, journalistAverage: 0, recordsAtHighestRisk: 0, records: 0 };
  let riskSum = 0;
  let atHighest = 0;
  for (const { sampleSize, populationSize } of classes) {
    riskSum += sampleSize / populationSize;
    if (populationSize === k) atHighest += sampleSize;
  }
  return { k, journalistHighest: 1 / k, journalistAverage: riskSum / records, recordsAtHighestRisk: atHighest / records, records };
}

/**
 * k-map without a population table: each population class size is estimated by its expected
 * value F̂ = f / π, under the assumption that the sample is a uniform random sample of the
 * population in which each person was drawn independently with probability π (Bernoulli sampling),
 * so E[f | F] = π F; F̂ = f / π is also E[F | f] when F − f is negative binomial (f, π), the
 * posterior under a flat prior (Benedetti & Franconi 1998). F̂ is not rounded. Because 1/F is convex,
 * 1/F̂ ≤ E[1/F | f] (Jensen): the figures are the expected-count estimate, not an upper bound.
 */
export function kMapEstimated(sampleClassSizes: readonly number[], fraction: number): KMapRisk {
  if (!(fraction > 0 && fraction <= 1)) throw new RangeError(`sampling fraction must be in (0, 1], got ${fraction}`);
  return kMapWithPopulation(sampleClassSizes.map((sampleSize) => ({ sampleSize, populationSize: sampleSize / fraction })));
}
