import { binomialUpperTail } from '../dp/sampling-amplification.js';
import { logChernoffTail, type CumulantFunction } from './chernoff.js';
import { VERIFY_ALPHA } from './significance.js';

/**
 * Goodness of fit of independent errors (answer − true count) to the discrete Laplace law of scale
 * b, Pr[Z = z] = (1−a)/(1+a)·a^{|z|}, a = e^{−1/b}. Two statistics, each tested on both tails at
 * α/4, so a correct release fails with probability at most α:
 *
 * - the number of zero errors, exactly Bin(n, (1−a)/(1+a)) (exact binomial tails): noise-free
 *   answers are all zeros;
 * - the sum of |errors|, the sufficient statistic of the scale, by Chernoff's bound on its exact
 *   cumulant function (chernoff.ts): too little or too much noise moves it.
 */
export interface LaplaceErrorsTest {
  readonly n: number;
  readonly zeros: number;
  readonly expectedZeros: number;
  readonly sumAbs: number;
  readonly expectedSumAbs: number;
  /** ln of the tail probabilities (zeros: exact) and bounds (sum: Chernoff) for a correct release. */
  readonly logZerosHigh: number;
  readonly logZerosLow: number;
  readonly logSumHigh: number;
  readonly logSumLow: number;
  /** Whether even noise-free answers (every error 0) would fail: with few answers they would not. */
  readonly detectsNoiseFree: boolean;
  readonly ok: boolean;
}

/** ln α/4: the level of each of the four tails. */
const LOG_QUARTER_ALPHA = Math.log(VERIFY_ALPHA / 4);

/** The cumulant function of Σ|Z_i| for n independent discrete Laplace errors of scale b. */
export function absLaplaceCumulant(n: number, b: number): CumulantFunction {
  const a = Math.exp(-1 / b);
  const c0 = (1 - a) / (1 + a);
  const c1 = (2 * (1 - a)) / (1 + a);
  // E[e^{λ|Z|}] = c0 + c1·u/(1−u), u = a·e^λ < 1.
  const mgf = (lambda: number): { m: number; dm: number } => {
    const u = a * Math.exp(lambda);
    return { m: c0 + (c1 * u) / (1 - u), dm: (c1 * u) / ((1 - u) * (1 - u)) };
  };
  return {
    k: (lambda) => n * Math.log(mgf(lambda).m),
    dk: (lambda) => {
      const { m, dm } = mgf(lambda);
      return (n * dm) / m;
    },
    lambdaMax: 1 / b,
  };
}

const ln = (p: number): number => (p <= 0 ? -Infinity : Math.log(p));

export function laplaceErrorsTest(errors: readonly number[], b: number): LaplaceErrorsTest {
  const n = errors.length;
  const a = Math.exp(-1 / b);
  const p0 = (1 - a) / (1 + a);
  const zeros = errors.filter((e) => e === 0).length;
  const sumAbs = errors.reduce((s, e) => s + Math.abs(e), 0);
  const cumulant = absLaplaceCumulant(n, b);
  const logZerosHigh = ln(binomialUpperTail(n, p0, zeros));
  // Pr[K ≤ k] = Pr[n − K ≥ n − k], n − K ~ Bin(n, 1 − p0).
  const logZerosLow = ln(binomialUpperTail(n, 1 - p0, n - zeros));
  const logSumHigh = logChernoffTail(cumulant, sumAbs, 'upper');
  const logSumLow = logChernoffTail(cumulant, sumAbs, 'lower');
  return {
    n,
    zeros,
    expectedZeros: n * p0,
    sumAbs,
    expectedSumAbs: n * ((2 * a) / (1 - a * a)),
    logZerosHigh,
    logZerosLow,
    logSumHigh,
    logSumLow,
    detectsNoiseFree: n * Math.log(p0) < LOG_QUARTER_ALPHA,
    ok: [logZerosHigh, logZerosLow, logSumHigh, logSumLow].every((l) => l >= LOG_QUARTER_ALPHA),
  };
}

/**
 * Correlated (generalized Laplace) noise: the errors are dependent (one W scales them all), so no
 * test of their empirical law holds. What holds whatever the dependence is each answer's marginal,
 * Laplace of scale b (|N_i| ~ Exp(b)):
 *
 * - Pr[max_i |N_i| ≤ x] ≤ Pr[|N_1| ≤ x] = 1 − e^{−x/b} (noise too small, e.g. none);
 * - Pr[max_i |N_i| ≥ x] ≤ n·e^{−x/b} (Boole's inequality; noise too large).
 *
 * `slack` widens x by the rounding between the noise and the released error (grid, printed digits).
 */
export function laplaceMarginalMaxTest(errors: readonly number[], b: number, slack: number): { readonly max: number; readonly logLow: number; readonly logHigh: number; readonly detectsNoiseFree: boolean; readonly ok: boolean } {
  const max = errors.reduce((m, e) => Math.max(m, Math.abs(e)), 0);
  const logLow = ln(-Math.expm1(-(max + slack) / b));
  const logHigh = Math.min(0, Math.log(errors.length) - Math.max(0, max - slack) / b);
  const logHalf = Math.log(VERIFY_ALPHA / 2);
  // Noise-free answers leave only the rounding: below α/2 only when it is small beside b.
  const detectsNoiseFree = ln(-Math.expm1(-slack / b)) < logHalf;
  return { max, logLow, logHigh, detectsNoiseFree, ok: logLow >= logHalf && logHigh >= logHalf };
}
