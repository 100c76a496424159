/** Chernoff bounds and the (ε,δ) test of Wang, Han, Fu (2012), in log space. */
export type BoundVariant = 'simplified' | 'full';

export interface PrivacyParameters {
  readonly p: number;
  readonly m: number;
  readonly epsilon: number;
  readonly delta: number;
  readonly bound: BoundVariant;
}

export const logU1 = (theta: number, mu: number): number => mu * (theta - (1 + theta) * Math.log1p(theta));
/** ln L1; at θ = 1 the 0^0 = 1 convention gives −μ. */
export const logL1 = (theta: number, mu: number): number =>
  theta >= 1 ? -mu : mu * (-theta - (1 - theta) * Math.log1p(-theta));
export const logU2 = (theta: number, mu: number): number => (-theta * theta * mu) / (2 + theta);
export const logL2 = (theta: number, mu: number): number => (-theta * theta * mu) / 2;

/** w, μ and θ of the bound conversion (Theorem 4.6) for a value of frequency f in a group of size n. */
export function conversion(n: number, f: number, p: number, m: number, epsilon: number): { w: number; mu: number; theta: number } {
  const w = f * p + (1 - p) / m;
  return { w, mu: n * w, theta: (epsilon * p * f) / w };
}

/** ε_max(g) = 1 + ((1−p)/m)/(p·f_max): beyond it θ > 1 and no δ > 0 can be certified. */
export function maxEpsilon(fMax: number, p: number, m: number): number {
  return 1 + (1 - p) / m / (p * fMax);
}

/** min{U, L} for one value, as a probability (the test passes when δ ≤ this). */
export function tailBound(n: number, f: number, params: PrivacyParameters): { upper: number; lower: number } {
  const { theta, mu } = conversion(n, f, params.p, params.m, params.epsilon);
  if (params.bound === 'full') return { upper: Math.exp(logU1(theta, mu)), lower: Math.exp(logL1(theta, mu)) };
  return { upper: Math.exp(logU2(theta, mu)), lower: Math.exp(logL2(theta, mu)) };
}

/** Refuses parameters the bounds are not defined for, whatever the caller checked before. */
export function checkPrivacyParameters(params: PrivacyParameters): void {
  const { p, m, epsilon, delta } = params;
  if (!(p > 0 && p <= 1)) throw new RangeError(`retention p = ${p} must be in (0, 1]`);
  if (!(Number.isInteger(m) && m >= 1)) throw new RangeError(`domain size m = ${m} must be a positive integer`);
  if (!(epsilon > 0 && Number.isFinite(epsilon))) throw new RangeError(`ε = ${epsilon} must be a finite number > 0`);
  if (!(delta > 0 && delta < 1)) throw new RangeError(`δ = ${delta} must be in (0, 1)`);
}

/**
 * Size threshold s_g (Theorems 5.11, 5.13) for a group whose largest value
 * frequency is fMax. Real-valued and never rounded: |g| ≤ s_g is the pass test.
 * Beyond ε_max (θ > 1) the bound conversion gives nothing to certify, so no
 * group size passes: the threshold is 0. (It was clamped to θ = 1, which let
 * a group whose sampling coins raised f_max past ε_max be certified.)
 */
export function sizeThreshold(fMax: number, params: PrivacyParameters): number {
  checkPrivacyParameters(params);
  const { p, m, epsilon, delta, bound } = params;
  const w = fMax * p + (1 - p) / m;
  const theta = (epsilon * p * fMax) / w;
  if (theta > 1) return 0;
  const lnDelta = Math.log(delta);
  if (bound === 'full') {
    const lnY = theta >= 1 ? -1 : -theta - (1 - theta) * Math.log1p(-theta);
    return lnDelta / (w * lnY);
  }
  return (-2 * lnDelta) / (w * theta * theta);
}

/**
 * The Corollary 4.10 test on a group given its value counts. Checking the most
 * frequent value suffices (both bounds fall as f grows), and it is equivalent
 * to n ≤ s_g(f_max); the threshold form avoids exp underflow for large groups.
 */
export function groupPasses(n: number, maxCount: number, params: PrivacyParameters): boolean {
  if (n === 0) return true;
  return n <= sizeThreshold(maxCount / n, params);
}
