/**
 * Individual re-identification risk (Benedetti & Franconi 1998; Franconi & Polettini 2004, "Individual
 * risk estimation in μ-Argus: a review"), as sdcMicro's `measure_risk` / `indivRisk` and μ-ARGUS
 * compute it.
 *
 * Model: a key class k has fk records in the sample and an unknown Fk ≥ fk people in the population;
 * given fk, Fk − fk is negative binomial with success probability pk, estimated by fk / F̂k where F̂k
 * is the sum of the sampling weights of the class. A record's risk is E[1 / Fk | fk]:
 *
 *   r(fk, p) = Σ_{h ≥ fk} (1/h) · C(h−1, fk−1) · p^fk · q^(h−fk),   q = 1 − p.
 *
 * Closed forms (checked against that sum in the tests):
 *   fk = 1: (p/q) · ln(1/p)
 *   fk = 2: (p/q²) · (p ln p + q)
 *   fk = 3: (p / (2q³)) · (q(3q − 2) − 2p² ln p)          (μ-ARGUS manual 4.1, p. 21 ff.)
 *   fk ≥ 4: μ-ARGUS's series (p/fk) · (1 + Σ_{j=1..7} j! q^j / ((fk+1)…(fk+j)))
 * sdcMicro's `indivRisk(method = "approx")`, which `measure_risk` calls, uses the same fk = 1 and
 * fk = 2 forms (written p/q − (p/q)² ln(1/p) for fk = 2) but p / (fk − q) for every fk ≥ 3 and no
 * series; a class whose weights sum to exactly fk gets 1/fk. `method: 'sdcMicro'` (the default)
 * reproduces that; `'muArgus'` uses the fk = 3 form and the series. Sources read (not copied):
 * sdcMicro R/indivRisk.R, R/measure_risk.R, R/freqCalc.r and src/Measure_Risk.h (github.com/sdcTools/sdcMicro).
 *
 * Missing key values (null) follow sdcMicro's freqCalc with alpha = 1: a missing value matches any
 * value, so a record's fk counts every record compatible with it (equal wherever both are known) and
 * Fk sums their weights. Its other alphas (a missing value counting as a fraction) are not offered.
 *
 * Global figures, as measure_risk reports them: `expectedReidentifications` = Σ r (global_risk_ER),
 * `globalRisk` = that / n (global_risk), `globalRiskPercent` = 100 · globalRisk (global_risk_pct).
 */
import { classIdsOnAll, encodeKeys, MISSING_CODE, type KeyCodes, type KeyValue } from './key-codes.js';

export type IndividualRiskMethod = 'sdcMicro' | 'muArgus';

/** A class's weights sum to less than its sample count: pk = fk / Fk would exceed 1. */
export class IndividualRiskInputError extends RangeError {
  constructor(message: string) {
    super(message);
    this.name = 'IndividualRiskInputError';
  }
}

/** Too many pairs of distinct key patterns to compare when some key values are missing. */
export class IndividualRiskWorkLimitError extends RangeError {
  constructor(
    readonly work: number,
    readonly limit: number,
  ) {
    super(`individual risk with missing key values needs ${work} pattern comparisons, more than the limit ${limit}`);
    this.name = 'IndividualRiskWorkLimitError';
  }
}

/**
 * The Benedetti–Franconi risk of a record in a class of `fk` sample records whose weights sum to `Fk`.
 * Fk = fk (the class is the whole population, p = 1) gives 1/fk under both methods.
 */
export function benedettiFranconiRisk(fk: number, Fk: number, method: IndividualRiskMethod = 'sdcMicro'): number {
  if (!Number.isInteger(fk) || fk < 1) throw new IndividualRiskInputError(`sample frequency must be a whole number ≥ 1, got ${fk}`);
  if (!(Fk >= fk) || !Number.isFinite(Fk)) throw new IndividualRiskInputError(`a class of ${fk} records has weights summing to ${Fk}: the sum must be finite and at least the class size`);
  if (Fk === fk) return 1 / fk;
  const p = fk / Fk;
  const q = 1 - p;
  if (fk === 1) return (p / q) * Math.log(1 / p);
  if (fk === 2) return (p / (q * q)) * (p * Math.log(p) + q);
  if (method === 'sdcMicro') return p / (fk - q);
  if (fk === 3) return (p / (2 * q * q * q)) * (q * (3 * q - 2) - 2 * p * p * Math.log(p));
  // μ-ARGUS's truncated series: term j is j! q^j / ((fk+1)…(fk+j)), built up one factor at a time.
  let sum = 1;
  let term = 1;
  for (let j = 1; j <= 7; j++) {
    term *= (j * q) / (fk + j);
    sum += term;
  }
  return (p / fk) * sum;
}

export interface IndividualRiskOptions {
  /** Sampling weight per record (SPSS case weights, a survey's design weights). */
  readonly weights?: ArrayLike<number>;
  /**
   * Without weights: the sampling fraction π of a simple random sample, each record standing for
   * 1/π people, so Fk = fk / π and pk = π in every class. Ignored when weights are given.
   * With neither, the file is taken as the population (sdcMicro's measure_risk without `w`): r = 1/fk.
   */
  readonly samplingFraction?: number;
  readonly method?: IndividualRiskMethod;
  /** With missing values: the most pairs of distinct patterns compared (default 10⁸). */
  readonly workLimit?: number;
}

export interface IndividualRisk {
  /** Per record, in input order. */
  readonly risk: Float64Array;
  readonly fk: Float64Array;
  readonly Fk: Float64Array;
  /** Σ risk: the expected number of re-identifications (sdcMicro global_risk_ER). */
  readonly expectedReidentifications: number;
  /** expectedReidentifications / records (global_risk); 0 for no records. */
  readonly globalRisk: number;
  readonly globalRiskPercent: number;
}

/** Individual risk per record from its key values (null = missing). */
export function individualRisk(rows: readonly (readonly KeyValue[])[], options: IndividualRiskOptions = {}): IndividualRisk {
  return individualRiskOfKeys(encodeKeys(rows), options);
}

/**
 * Individual risk by class: each record's class (or, with missing values, its pattern) and each
 * class's fk, Fk and risk, without arrays per record: what a summary over a million records needs.
 */
export interface ClassRisk {
  readonly records: number;
  /** The class of each record. */
  readonly ids: ArrayLike<number>;
  readonly fkOf: Float64Array;
  readonly FkOf: Float64Array;
  /** The risk of each class (NaN for an id no record has). */
  readonly riskOf: Float64Array;
  /** Σ risk over the records, summed in record order. */
  readonly expectedReidentifications: number;
  readonly globalRisk: number;
  readonly globalRiskPercent: number;
}

/** Individual risk per class from key values already coded (a table's dictionary codes, say). */
export function individualRiskByClass(keys: KeyCodes, options: IndividualRiskOptions = {}): ClassRisk {
  const n = keys.records;
  const weights = recordWeights(n, options);
  const { ids, fkOf, FkOf } = hasMissing(keys) ? compatibleFrequencies(keys, weights, options.workLimit ?? 1e8) : classFrequencies(keys, weights);
  const method = options.method ?? 'sdcMicro';
  // A record's risk is its class's (or pattern's): computed once per class, when its first record
  // is met, so an invalid class is named by the same record as when each record was computed.
  const riskOf = new Float64Array(fkOf.length).fill(Number.NaN);
  let sum = 0;
  for (let r = 0; r < n; r++) {
    const id = ids[r]!;
    if (Number.isNaN(riskOf[id]!)) {
      try {
        riskOf[id] = benedettiFranconiRisk(fkOf[id]!, FkOf[id]!, method);
      } catch (error) {
        if (error instanceof IndividualRiskInputError) throw new IndividualRiskInputError(`record ${r + 1}: ${error.message}`);
        throw error;
      }
    }
    sum += riskOf[id]!;
  }
  const globalRisk = n === 0 ? 0 : sum / n;
  return { records: n, ids, fkOf, FkOf, riskOf, expectedReidentifications: sum, globalRisk, globalRiskPercent: 100 * globalRisk };
}

/** Individual risk per record from key values already coded (a table's dictionary codes, say). */
export function individualRiskOfKeys(keys: KeyCodes, options: IndividualRiskOptions = {}): IndividualRisk {
  const byClass = individualRiskByClass(keys, options);
  const { records: n, ids, fkOf, FkOf, riskOf } = byClass;
  const fk = new Float64Array(n);
  const Fk = new Float64Array(n);
  const risk = new Float64Array(n);
  for (let r = 0; r < n; r++) {
    const id = ids[r]!;
    fk[r] = fkOf[id]!;
    Fk[r] = FkOf[id]!;
    risk[r] = riskOf[id]!;
  }
  const { expectedReidentifications, globalRisk, globalRiskPercent } = byClass;
  return { risk, fk, Fk, expectedReidentifications, globalRisk, globalRiskPercent };
}

/** Each record's weight; all 1 when the file is the population (then Fk = fk and r = 1/fk). */
function recordWeights(n: number, options: IndividualRiskOptions): Float64Array {
  const weights = new Float64Array(n);
  if (options.weights !== undefined) {
    if (options.weights.length !== n) throw new IndividualRiskInputError(`${options.weights.length} weights for ${n} records`);
    for (let r = 0; r < n; r++) {
      const w = options.weights[r]!;
      if (!(w > 0) || !Number.isFinite(w)) throw new IndividualRiskInputError(`record ${r + 1}: weight ${w} is not a positive finite number`);
      weights[r] = w;
    }
    return weights;
  }
  const fraction = options.samplingFraction ?? 1;
  if (!(fraction > 0 && fraction <= 1)) throw new IndividualRiskInputError(`sampling fraction ${fraction} is not in (0, 1]`);
  weights.fill(1 / fraction);
  return weights;
}

function hasMissing(keys: KeyCodes): boolean {
  if (keys.noneMissing) return false;
  return keys.codes.some((column) => column.includes(MISSING_CODE));
}

/** Each record's class, and each class's fk and Fk. */
interface ClassFrequencies {
  readonly ids: ArrayLike<number>;
  readonly fkOf: Float64Array;
  readonly FkOf: Float64Array;
}

/** No missing values: fk and Fk of each class. */
function classFrequencies(keys: KeyCodes, weights: Float64Array): ClassFrequencies {
  const n = keys.records;
  const { ids, classes } = classIdsOnAll(keys);
  const count = new Float64Array(classes);
  const total = new Float64Array(classes);
  for (let r = 0; r < n; r++) {
    count[ids[r]!]!++;
    total[ids[r]!]! += weights[r]!;
  }
  return { ids, fkOf: count, FkOf: total };
}

/**
 * With missing values (sdcMicro freqCalc, alpha = 1): records grouped into distinct patterns, then
 * every pair of patterns compared: compatible when equal wherever both are known.
 */
function compatibleFrequencies(keys: KeyCodes, weights: Float64Array, workLimit: number): ClassFrequencies {
  const n = keys.records;
  const m = keys.attributes;
  const { ids, classes } = classIdsOnAll(keys);
  const work = classes * classes;
  if (work > workLimit) throw new IndividualRiskWorkLimitError(work, workLimit);
  const first = new Int32Array(classes).fill(-1);
  const count = new Float64Array(classes);
  const total = new Float64Array(classes);
  for (let r = 0; r < n; r++) {
    const id = ids[r]!;
    if (first[id] === -1) first[id] = r;
    count[id]!++;
    total[id]! += weights[r]!;
  }
  const fkOf = new Float64Array(classes);
  const FkOf = new Float64Array(classes);
  for (let i = 0; i < classes; i++) {
    const ri = first[i]!;
    for (let j = 0; j < classes; j++) {
      const rj = first[j]!;
      let compatible = true;
      for (let a = 0; a < m && compatible; a++) {
        const x = keys.codes[a]![ri]!;
        const y = keys.codes[a]![rj]!;
        compatible = x === MISSING_CODE || y === MISSING_CODE || x === y;
      }
      if (compatible) {
        fkOf[i]! += count[j]!;
        FkOf[i]! += total[j]!;
      }
    }
  }
  return { ids, fkOf, FkOf };
}
