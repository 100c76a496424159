/**
 * Population uniqueness: how many people in the population are unique on the quasi-identifiers,
 * estimated from a sample's equivalence-class sizes and the sampling fraction. The models and
 * Dankar et al.'s choice among them are the ones ARX offers; the figures equal ARX 3.9.2's on Adult
 * (test/fixtures/arx/population-uniqueness.json). See README.md in this folder for the formulas.
 */
import { hypergeometricProbabilityOfOne, logGamma } from './special-functions.js';
import { newton2d, numericJacobian, type Vector2 } from './newton2d.js';

/** [class size, number of classes of that size] pairs; sizes ≥ 1, counts ≥ 1. */
export type ClassSizeFrequencies = ReadonlyArray<readonly [size: number, classes: number]>;

export type PopulationUniquenessModel = 'pitman' | 'zayatz' | 'snb' | 'dankar';

export interface PopulationUniquenessEstimate {
  readonly model: PopulationUniquenessModel;
  /** The model that gave the figure (Dankar's rule picks one; the others give themselves). */
  readonly source: Exclude<PopulationUniquenessModel, 'dankar'> | 'none';
  /** Estimated number of population uniques; null when the estimator did not converge. */
  readonly populationUniques: number | null;
  /** populationUniques / population size (ARX's "fraction of unique tuples"); null as above. */
  readonly populationUniqueShare: number | null;
  readonly populationSize: number;
  readonly sampleUniques: number;
}

/** ARX's solver accuracy (ARXSolverConfiguration.getDefaultAccuracy): both equations within 1e-6 of zero. */
const ACCURACY = 1e-6;
const MAX_ITERATIONS = 1000;

interface Sample {
  readonly sizes: readonly number[];
  readonly counts: readonly number[];
  readonly records: number;
  readonly classes: number;
  readonly uniques: number;
  readonly doubletons: number;
  readonly populationSize: number;
  readonly fraction: number;
}

/**
 * The sample summary every model uses. The population size is n / fraction rounded to a whole
 * number (a population is a count; ARX's ARXPopulationModel.create(n, fraction) does the same), and
 * the fraction the models use is n / that size.
 */
function summarize(frequencies: ClassSizeFrequencies, fraction: number): Sample {
  if (!(fraction > 0 && fraction <= 1)) throw new RangeError(`sampling fraction must be in (0, 1], got ${fraction}`);
  const merged = new Map<number, number>();
  for (const [size, count] of frequencies) {
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`class size must be a whole number ≥ 1, got ${size}`);
    if (!Number.isInteger(count) || count < 0) throw new RangeError(`number of classes must be a whole number ≥ 0, got ${count}`);
    if (count > 0) merged.set(size, (merged.get(size) ?? 0) + count);
  }
  const sizes = [...merged.keys()].sort((a, b) => a - b);
  const counts = sizes.map((size) => merged.get(size) as number);
  let records = 0;
  let classes = 0;
  for (let i = 0; i < sizes.length; i++) {
    records += sizes[i]! * counts[i]!;
    classes += counts[i]!;
  }
  const populationSize = records === 0 ? 0 : Math.round(records / fraction);
  return {
    sizes,
    counts,
    records,
    classes,
    uniques: merged.get(1) ?? 0,
    doubletons: merged.get(2) ?? 0,
    populationSize,
    fraction: populationSize === 0 ? fraction : records / populationSize,
  };
}

function estimate(model: PopulationUniquenessModel, source: PopulationUniquenessEstimate['source'], uniques: number | null, sample: Sample): PopulationUniquenessEstimate {
  const valid = uniques !== null && Number.isFinite(uniques);
  return {
    model,
    source,
    populationUniques: valid ? uniques : null,
    populationUniqueShare: valid && sample.populationSize > 0 ? uniques / sample.populationSize : valid ? 0 : null,
    populationSize: sample.populationSize,
    sampleUniques: sample.uniques,
  };
}

/**
 * Zayatz (1991), as ARX computes it: P(population unique | sample unique) is estimated as
 * (c₁/u) h(1) / Σ_s (c_s/u) h_s(1), h_s(1) = P(X = 1) for X hypergeometric (population N, s marked,
 * n drawn), and the population uniques as c₁ · that / f.
 */
function zayatzUniques(sample: Sample): number {
  const { populationSize: N, records: n, classes: u } = sample;
  let denominator = 0;
  for (let i = 0; i < sample.sizes.length; i++) denominator += (sample.counts[i]! / u) * hypergeometricProbabilityOfOne(N, sample.sizes[i]!, n);
  const conditional = ((sample.uniques / u) * hypergeometricProbabilityOfOne(N, 1, n)) / denominator;
  return (sample.uniques * conditional) / sample.fraction;
}

/**
 * Pitman's sampling formula (Hoshino 2001): the maximum-likelihood θ, α of the Ewens–Pitman
 * partition of the sample, then E[population uniques] ≈ Γ(θ+1)/Γ(θ+α) · N^α. Null when the
 * likelihood equations have no solution with θ ≥ 0 from ARX's moment start nor its grid of
 * start values, or the figure is
 * outside [0, N].
 */
function pitmanUniques(sample: Sample): number | null {
  const { uniques: c1, classes: u, records: n, populationSize: N } = sample;
  const c2 = sample.doubletons !== 0 ? sample.doubletons : 1;
  // The start ARX uses (moment estimates from c₁, c₂).
  const c = (c1 * (c1 - 1)) / c2;
  const t0 = (n * u * c - c1 * (n - 1) * (2 * u + c)) / (2 * c1 * u + c1 * c - n * c);
  const a0 = (t0 * (c1 - n) + (n - 1) * c1) / (n * u);
  // w_l = number of classes larger than l, so Σ_classes Σ_{l<size} g(l) = Σ_l w_l g(l).
  const maxSize = sample.sizes[sample.sizes.length - 1] ?? 0;
  const larger = new Float64Array(maxSize);
  for (let i = 0; i < sample.sizes.length; i++) for (let l = 1; l < sample.sizes[i]!; l++) larger[l]! += sample.counts[i]!;
  // The score of ln L = Σ_{i<u} ln(θ+iα) − Σ_{i<n} ln(θ+i) + Σ_l w_l ln(l−α), and its Hessian.
  const score = (point: Vector2): Vector2 => {
    const [t, a] = point;
    let dTheta = 0;
    let dAlpha = 0;
    for (let i = 1; i < u; i++) {
      const inverse = 1 / (t + i * a);
      dTheta += inverse;
      dAlpha += i * inverse;
    }
    for (let i = 1; i < n; i++) dTheta -= 1 / (t + i);
    for (let l = 1; l < maxSize; l++) if (larger[l] !== 0) dAlpha -= larger[l]! / (l - a);
    return [dTheta, dAlpha];
  };
  const hessian = (point: Vector2): readonly [number, number, number, number] => {
    const [t, a] = point;
    let tt = 0;
    let ta = 0;
    let aa = 0;
    for (let i = 1; i < u; i++) {
      const inverse2 = 1 / ((t + i * a) * (t + i * a));
      tt -= inverse2;
      ta -= i * inverse2;
      aa -= i * i * inverse2;
    }
    for (let i = 1; i < n; i++) tt += 1 / ((t + i) * (t + i));
    for (let l = 1; l < maxSize; l++) if (larger[l] !== 0) aa -= larger[l]! / ((l - a) * (l - a));
    return [tt, ta, ta, aa];
  };
  // From the moment start first, then ARX's grid of start values, until one converges.
  for (const start of [[t0, a0] as Vector2, ...arxStartValues()]) {
    const root = newton2d(score, hessian, start, { accuracy: ACCURACY, maxIterations: MAX_ITERATIONS, feasible: ([t]: Vector2) => t >= 0 });
    if (root === null) continue;
    const [t, a] = root;
    if (!Number.isFinite(t) || !Number.isFinite(a) || a === 0) return null;
    const uniques = Math.exp(logGamma(t + 1) - logGamma(t + a) + a * Math.log(N));
    return uniques >= 0 && uniques <= N ? uniques : null;
  }
  return null;
}

/**
 * ARX's estimate of the number of non-empty population classes K for the SNB model:
 * u + c₁ · (Σ s f²(1−f²)^{s−1} c_s / Σ[(1−f)^s c_s (1+f)^s − 1]) · (Σ (1−f)^s c_s / Σ s f (1−f)^{s−1} c_s)².
 * The "− 1" is inside the sum, once per distinct class size, exactly as ARX 3.9.2 has it.
 */
function snbClassCount(sample: Sample): number {
  const f = sample.fraction;
  let var1 = 0;
  let var2 = 0;
  let var3 = 0;
  let var4 = 0;
  const f2 = f * f;
  for (let i = 0; i < sample.sizes.length; i++) {
    const s = sample.sizes[i]!;
    const count = sample.counts[i]!;
    const term = Math.pow(1 - f, s) * count;
    var1 += s * f2 * Math.pow(1 - f2, s - 1) * count;
    var2 += term * Math.pow(1 + f, s) - 1;
    var3 += term;
    var4 += s * f * Math.pow(1 - f, s - 1) * count;
  }
  return sample.classes + sample.uniques * (var1 / var2) * (var3 / var4) * (var3 / var4);
}

/** The start values ARX's solver tries in turn (ARXSolverConfiguration.getDefaultStartValues). */
function arxStartValues(): Vector2[] {
  const starts: Vector2[] = [];
  for (let d1 = 0; d1 < 1; d1 += 0.33) for (let d2 = 0; d2 < 1; d2 += 0.33) starts.push([d1, d2]);
  return starts;
}

/**
 * The shifted negative binomial model (Chen & Keller-McNulty 1998), with ARX's two moment equations
 * in (α, β): E[c₁] = c₁ and E[c₂] = c₂ given K classes; population uniques = K β^α.
 */
function snbUniques(sample: Sample): number | null {
  const k = snbClassCount(sample);
  const f = sample.fraction;
  const c1 = sample.uniques;
  const c2 = sample.doubletons;
  const system = ([a, b]: Vector2): Vector2 => {
    const d = (1 - f) * (1 - b);
    return [
      k * f * Math.pow(b / (1 - d), a) * ((a * d) / (1 - d) + 1) - c1,
      ((k * a * Math.pow(b, a) * (f * f) * (1 - b)) / 2) * Math.pow(1 - d, a + 2) * (2 - (1 - a) * d) - c2,
    ];
  };
  const jacobian = numericJacobian(system);
  for (const start of arxStartValues()) {
    // The negative binomial needs α ≥ 0 and 0 ≤ β ≤ 1; the equations also have roots outside (α < 0, β > 1).
    const root = newton2d(system, jacobian, start, { accuracy: ACCURACY, maxIterations: MAX_ITERATIONS, feasible: ([a, b]: Vector2) => a >= 0 && b >= 0 && b <= 1 });
    if (root === null) continue;
    const uniques = k * Math.pow(root[1], root[0]);
    if (Number.isFinite(uniques)) return uniques;
  }
  return null;
}

/** The number of population uniques by Zayatz's model (null never: it has no solver). */
export function zayatz(frequencies: ClassSizeFrequencies, fraction: number): PopulationUniquenessEstimate {
  const sample = summarize(frequencies, fraction);
  return estimate('zayatz', 'zayatz', sample.uniques === 0 ? 0 : nullIfInvalid(zayatzUniques(sample)), sample);
}

export function pitman(frequencies: ClassSizeFrequencies, fraction: number): PopulationUniquenessEstimate {
  const sample = summarize(frequencies, fraction);
  return estimate('pitman', 'pitman', sample.uniques === 0 ? 0 : nullIfInvalid(pitmanUniques(sample)), sample);
}

export function snb(frequencies: ClassSizeFrequencies, fraction: number): PopulationUniquenessEstimate {
  const sample = summarize(frequencies, fraction);
  return estimate('snb', 'snb', sample.uniques === 0 ? 0 : nullIfInvalid(snbUniques(sample)), sample);
}

/**
 * Dankar, El Emam, Neisa & Roffey (2012), as ARX decides: with no sample uniques, 0; at a sampling
 * fraction ≤ 0.1 Pitman, falling back to Zayatz when Pitman fails; above 0.1 the smaller of Zayatz
 * and SNB, or Zayatz when SNB fails.
 */
export function dankar(frequencies: ClassSizeFrequencies, fraction: number): PopulationUniquenessEstimate {
  const sample = summarize(frequencies, fraction);
  if (sample.uniques === 0) return estimate('dankar', 'none', 0, sample);
  if (sample.fraction <= 0.1) {
    const viaPitman = nullIfInvalid(pitmanUniques(sample));
    if (viaPitman !== null) return estimate('dankar', 'pitman', viaPitman, sample);
    return estimate('dankar', 'zayatz', nullIfInvalid(zayatzUniques(sample)), sample);
  }
  const viaSnb = nullIfInvalid(snbUniques(sample));
  const viaZayatz = nullIfInvalid(zayatzUniques(sample));
  if (viaSnb !== null && viaZayatz !== null && viaZayatz >= viaSnb) return estimate('dankar', 'snb', viaSnb, sample);
  if (viaSnb !== null && viaZayatz === null) return estimate('dankar', 'snb', viaSnb, sample);
  return estimate('dankar', 'zayatz', viaZayatz, sample);
}

/** ARX treats NaN and exactly 0 from an estimator as "not available". */
function nullIfInvalid(value: number | null): number | null {
  return value === null || Number.isNaN(value) || value === 0 ? null : value;
}

/** One entry point for all models. */
export function populationUniqueness(frequencies: ClassSizeFrequencies, fraction: number, model: PopulationUniquenessModel): PopulationUniquenessEstimate {
  switch (model) {
    case 'pitman':
      return pitman(frequencies, fraction);
    case 'zayatz':
      return zayatz(frequencies, fraction);
    case 'snb':
      return snb(frequencies, fraction);
    case 'dankar':
      return dankar(frequencies, fraction);
  }
}

/** The class-size frequencies of a list of class sizes (e.g. from the quasi-identifier classes). */
export function classSizeFrequencies(classSizes: Iterable<number>): ClassSizeFrequencies {
  const counts = new Map<number, number>();
  for (const size of classSizes) counts.set(size, (counts.get(size) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => a[0] - b[0]);
}
