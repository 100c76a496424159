import { exactBernoulli, uniformBigInt, uniformInt } from './draws.js';
import type { RandomSource } from './source.js';
import { rational, type Rational } from '../exact/rational.js';

/**
 * Exact samplers of Canonne, Kamath and Steinke ("The discrete Gaussian for
 * differential privacy", 2020): integer and rational arithmetic only, all
 * randomness from the source. No floating-point logarithm touches a released
 * value (Mironov's attack on textbook Laplace noise).
 */

/** Bernoulli(exp(−γ)) for rational γ ≥ 0. */
export function bernoulliExp(source: RandomSource, gamma: Rational): boolean {
  if (gamma.num < 0n) throw new RangeError('γ must be non-negative');
  if (gamma.num <= gamma.den) {
    // K counts successes of Bernoulli(γ/K); the result is 1 when K ends odd.
    let k = 1n;
    for (;;) {
      if (!exactBernoulli(rational(gamma.num, gamma.den * k)).draw(source)) break;
      k++;
    }
    return k % 2n === 1n;
  }
  const whole = gamma.num / gamma.den;
  for (let i = 0n; i < whole; i++) if (!bernoulliExpMinusOne(source)) return false;
  return bernoulliExp(source, rational(gamma.num - whole * gamma.den, gamma.den));
}

/** Bernoulli(e^−1): the loop above at γ = 1, where Bernoulli(1/K) is uniformInt(K) = 0 — small integers only. */
export function bernoulliExpMinusOne(source: RandomSource): boolean {
  let k = 1;
  while (uniformInt(source, k) === 0) k++;
  return k % 2 === 1;
}

const ONE = rational(1n);

/** Discrete Laplace with scale σ = t/s: Pr[Z = z] ∝ exp(−|z|/σ) (CKS Algorithm 2; expected O(1) draws). */
export function discreteLaplace(source: RandomSource, scale: Rational): bigint {
  const t = scale.num;
  const s = scale.den;
  if (t <= 0n) throw new RangeError('the scale must be positive');
  for (;;) {
    const u = uniformBigInt(source, t);
    if (!bernoulliExp(source, rational(u, t))) continue;
    let v = 0n;
    while (bernoulliExp(source, ONE)) v++;
    const x = u + t * v;
    const y = x / s;
    const negative = uniformInt(source, 2) === 1;
    if (negative && y === 0n) continue;
    return negative ? -y : y;
  }
}

/** Discrete Gaussian with variance σ² (rational): Pr[Z = z] ∝ exp(−z²/(2σ²)) (CKS Algorithm 3). */
export function discreteGaussian(source: RandomSource, sigma2: Rational): bigint {
  // t = ⌊σ⌋ + 1, computed exactly from σ² by an integer square root.
  const t = integerSqrt(sigma2.num / sigma2.den) + 1n;
  for (;;) {
    const y = discreteLaplace(source, rational(t));
    const abs = y < 0n ? -y : y;
    // γ = (|y| − σ²/t)² / (2σ²)
    const diffNum = abs * t * sigma2.den - sigma2.num; // over t·den
    const num = diffNum * diffNum * sigma2.den;
    const den = t * sigma2.den * (t * sigma2.den) * 2n * sigma2.num;
    if (bernoulliExp(source, rational(num, den))) return y;
  }
}

/** ⌊√n⌋ for a non-negative bigint (Newton's method). */
export function integerSqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = BigInt(Math.floor(Math.sqrt(Number(n))));
  while (x * x > n) x--;
  while ((x + 1n) * (x + 1n) <= n) x++;
  return x;
}

/** Bits of the grid on which continuous noise is drawn and released: 2^−GRID_BITS. */
export const GRID_BITS = 20;
const GRID = 1n << BigInt(GRID_BITS);
const GRID_VARIANCE = rational(GRID * GRID);

/** N(0,1) on the grid 2^−20: a discrete Gaussian of σ = 2^20, scaled (exact on its grid). */
export function gridGaussian(source: RandomSource): number {
  return Number(discreteGaussian(source, GRID_VARIANCE)) / Number(GRID);
}

/** Exp(1) on the grid 2^−20: integer part by Bernoulli(e^−1) runs, fraction by exact rejection. */
export function gridExponential(source: RandomSource): number {
  let u: bigint;
  do u = uniformBigInt(source, GRID);
  while (!bernoulliExp(source, rational(u, GRID)));
  let v = 0;
  while (bernoulliExp(source, ONE)) v++;
  return v + Number(u) / Number(GRID);
}

/** Snaps a value to the multiple of 2^−bits nearest to it (Mironov's snapping). */
export function snap(value: number, bits = GRID_BITS): number {
  const grid = 2 ** bits;
  return Math.round(value * grid) / grid;
}

/** Pr[Z = z] of the discrete Laplace with a = e^{−1/σ}: (1−a)/(1+a)·a^{|z|}. */
export function discreteLaplacePmf(z: number, scale: number): number {
  const a = Math.exp(-1 / scale);
  return ((1 - a) / (1 + a)) * a ** Math.abs(z);
}

/** Inverse CDF of the continuous Laplace — for tests and simulations only, never for a release. */
export function laplaceQuantile(u: number, scale: number): number {
  return u < 0.5 ? scale * Math.log(2 * u) : -scale * Math.log(2 * (1 - u));
}
