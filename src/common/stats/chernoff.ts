/**
 * Chernoff bounds on the tails of a sum of independent random variables, from the exact cumulant
 * generating function K(λ) = log E[e^{λS}] = Σ log E[e^{λX_i}]:
 *
 *   Pr[S ≥ t] ≤ exp(K(λ) − λt) for every λ ≥ 0,   Pr[S ≤ t] ≤ exp(K(λ) − λt) for every λ ≤ 0.
 *
 * The bound holds at any λ, so the search for the best λ can only lose power, never validity: a
 * test that fails a release when the bound is below α fails a correct release with probability at
 * most α, whatever the search finds.
 */

/** K(λ) and its derivative K′(λ) (the mean of the sum under the tilted law). */
export interface CumulantFunction {
  readonly k: (lambda: number) => number;
  readonly dk: (lambda: number) => number;
  /** λ must stay below this (an MGF that is finite only for λ < λ_max); Infinity for bounded variables. */
  readonly lambdaMax?: number;
}

/** log(e^a + e^b) without overflow. */
export function logAddExp(a: number, b: number): number {
  if (a === -Infinity) return b;
  if (b === -Infinity) return a;
  const m = Math.max(a, b);
  return m + Math.log1p(Math.exp(-Math.abs(a - b)));
}

/** log Σ e^{x_i} without overflow. */
export function logSumExp(xs: readonly number[]): number {
  let m = -Infinity;
  for (const x of xs) if (x > m) m = x;
  if (m === -Infinity) return -Infinity;
  let s = 0;
  for (const x of xs) s += Math.exp(x - m);
  return m + Math.log(s);
}

/** Largest |λ| the search tries: far beyond any λ a tail at 10⁻⁶ needs for variables of unit spread. */
const LAMBDA_LIMIT = 2 ** 30;

/**
 * log of the Chernoff bound on Pr[S ≥ t] (side 'upper') or Pr[S ≤ t] (side 'lower'); 0 when the
 * bound says nothing (t on the mean's side).
 */
export function logChernoffTail(c: CumulantFunction, t: number, side: 'upper' | 'lower'): number {
  const sign = side === 'upper' ? 1 : -1;
  const phi = (lambda: number): number => c.k(lambda) - lambda * t;
  // Moving λ away from 0 helps only while the tilted mean is short of t.
  const short = (lambda: number): boolean => sign * (c.dk(lambda) - t) < 0;
  if (!short(0)) return 0;
  const limit = Math.min(LAMBDA_LIMIT, side === 'upper' ? (c.lambdaMax ?? Infinity) : Infinity);
  // Bracket the root of K′(λ) = t by doubling, then bisect; φ is convex, so its minimum is there.
  let lo = 0;
  let hi = Math.min(1, limit * (1 - 1e-12));
  while (short(sign * hi) && hi < limit * (1 - 1e-12)) {
    lo = hi;
    hi = Math.min(hi * 2, limit * (1 - 1e-12));
  }
  for (let i = 0; i < 200 && hi - lo > 1e-12 * Math.max(1, hi); i++) {
    const mid = (lo + hi) / 2;
    if (short(sign * mid)) lo = mid;
    else hi = mid;
  }
  // Any λ of the right sign gives a valid bound: take the best of the points tried.
  return Math.min(0, phi(sign * lo), phi(sign * hi));
}

/**
 * A sum of independent variables that fall in a few classes: `count` variables share one finite
 * law, value values[j] with probability probs[j].
 */
export interface DiscreteClass {
  readonly count: number;
  readonly values: readonly number[];
  readonly probs: readonly number[];
}

/** The cumulant function of a sum of independent finite discrete variables, given by classes. */
export function discreteCumulant(classes: readonly DiscreteClass[]): CumulantFunction {
  const logProbs = classes.map((c) => c.probs.map((p) => Math.log(p)));
  const k = (lambda: number): number => {
    let sum = 0;
    classes.forEach((c, i) => {
      sum += c.count * logSumExp(c.values.map((v, j) => logProbs[i]![j]! + lambda * v));
    });
    return sum;
  };
  const dk = (lambda: number): number => {
    let sum = 0;
    classes.forEach((c, i) => {
      const exponents = c.values.map((v, j) => logProbs[i]![j]! + lambda * v);
      const norm = logSumExp(exponents);
      let mean = 0;
      c.values.forEach((v, j) => (mean += v * Math.exp(exponents[j]! - norm)));
      sum += c.count * mean;
    });
    return sum;
  };
  return { k, dk };
}

/** The mean of such a sum. */
export function discreteMean(classes: readonly DiscreteClass[]): number {
  return classes.reduce((s, c) => s + c.count * c.values.reduce((m, v, j) => m + v * c.probs[j]!, 0), 0);
}
