/**
 * Re-identification measures custodians know from ARX and sdcMicro, computed
 * from the sizes of the equivalence classes on the quasi-identifiers. With no
 * population table the sample stands in for the population, so journalist risk
 * equals prosecutor risk (an upper bound) and marketer risk equals the average
 * prosecutor risk.
 */
export interface ReidentificationRisk {
  readonly records: number;
  readonly classes: number;
  readonly sampleUniques: number;
  readonly sampleUniqueShare: number;
  /** 1 / smallest class size. */
  readonly prosecutorHighest: number;
  /** Mean over records of 1/|class| = classes / records. */
  readonly prosecutorAverage: number;
  /** Share of records whose risk equals the highest. */
  readonly recordsAtHighestRisk: number;
  /** The bound 1 / smallest class: a class's population count is at least its sample count. */
  readonly journalistHighest: number;
  /** Only with a population, estimates (not bounds): π / smallest class and π · prosecutorAverage. */
  readonly journalistEstimateHighest?: number;
  readonly journalistEstimateAverage?: number;
  readonly marketerAverage: number;
}

/**
 * Estimates of the journalist's risks when the data are a uniform sample (fraction π) of a known
 * population: were a class of f records to stand for its expected f / π people, a record's risk
 * would be π / f. An estimate, not a bound: the population count of a class may be as small as f
 * (a sample unique may be unique in the population), so `journalistHighest` stays the bound 1 / f.
 * Not ARX's k-map estimators (Poisson, zero-truncated Poisson): the expected count, no test.
 */
export function withSamplingFraction(risk: ReidentificationRisk, fraction: number): ReidentificationRisk {
  if (risk.records === 0) return { ...risk, journalistEstimateHighest: 0, journalistEstimateAverage: 0 };
  // π / smallest class (class sizes are whole numbers, so 1 / prosecutorHighest is one).
  return { ...risk, journalistEstimateHighest: fraction / Math.round(1 / risk.prosecutorHighest), journalistEstimateAverage: fraction * risk.prosecutorAverage };
}

/**
 * The measures when suppressed cells are wildcards (local suppression): a record's risk is 1 / fk,
 * fk the records compatible with it (sdcMicro's indivRisk without weights); `classes` counts the
 * distinct released tuples, a sample unique is a record with fk = 1.
 */
export function wildcardReidentificationRisk(frequencies: ArrayLike<number>, classes: number): ReidentificationRisk {
  const records = frequencies.length;
  if (records === 0) return reidentificationRisk([]);
  let smallest = Infinity;
  let uniques = 0;
  let sum = 0;
  for (let i = 0; i < records; i++) {
    const fk = frequencies[i]!;
    if (fk < smallest) smallest = fk;
    if (fk === 1) uniques++;
    sum += 1 / fk;
  }
  let atHighest = 0;
  for (let i = 0; i < records; i++) if (frequencies[i] === smallest) atHighest++;
  return {
    records,
    classes,
    sampleUniques: uniques,
    sampleUniqueShare: uniques / records,
    prosecutorHighest: 1 / smallest,
    prosecutorAverage: sum / records,
    recordsAtHighestRisk: atHighest / records,
    journalistHighest: 1 / smallest,
    marketerAverage: sum / records,
  };
}

export function reidentificationRisk(classSizes: ArrayLike<number>): ReidentificationRisk {
  let records = 0;
  let classes = 0;
  let uniques = 0;
  let smallest = Infinity;
  for (let i = 0; i < classSizes.length; i++) {
    const size = classSizes[i]!;
    if (size === 0) continue;
    records += size;
    classes++;
    if (size === 1) uniques++;
    if (size < smallest) smallest = size;
  }
  if (records === 0) {
    return { records: 0, classes: 0, sampleUniques: 0, sampleUniqueShare: 0, prosecutorHighest: 0, prosecutorAverage: 0, recordsAtHighestRisk: 0, journalistHighest: 0, marketerAverage: 0 };
  }
  let atHighest = 0;
  for (let i = 0; i < classSizes.length; i++) if (classSizes[i] === smallest) atHighest += smallest;
  return {
    records,
    classes,
    sampleUniques: uniques,
    sampleUniqueShare: uniques / records,
    prosecutorHighest: 1 / smallest,
    prosecutorAverage: classes / records,
    recordsAtHighestRisk: atHighest / records,
    journalistHighest: 1 / smallest,
    marketerAverage: classes / records,
  };
}
