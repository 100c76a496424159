import { add, div, mul, rational, sub, type Rational } from '../../exact/rational.js';

/**
 * Maximum retention for ρ1–ρ2 privacy:
 * γ = ρ2(1−ρ1)/(ρ1(1−ρ2)),  p_max = (γ−1)/(m−1+γ), computed exactly.
 */
export function maxRetentionForRho(rho1: Rational, rho2: Rational, m: number): { gamma: Rational; retention: Rational } {
  const one = rational(1n);
  const zero = rational(0n);
  if (!(cmp(zero, rho1) < 0 && cmp(rho1, rho2) < 0 && cmp(rho2, one) < 0)) {
    throw new RangeError('ρ1–ρ2 privacy needs 0 < rho1 < rho2 < 1');
  }
  if (!Number.isInteger(m) || m < 2) throw new RangeError('the sensitive domain needs at least 2 values');
  const gamma = div(mul(rho2, sub(one, rho1)), mul(rho1, sub(one, rho2)));
  const retention = div(sub(gamma, one), add(rational(BigInt(m - 1)), gamma));
  return { gamma, retention };
}

function cmp(a: Rational, b: Rational): number {
  const d = a.num * b.den - b.num * a.den;
  return d < 0n ? -1 : d > 0n ? 1 : 0;
}

/** γ_p = 1 + p·m/(1−p): the diagonal/off-diagonal ratio of the perturbation matrix. */
export function amplification(p: number, m: number): number {
  return 1 + (p * m) / (1 - p);
}

/** Posterior Pr[X=x | Y=y] for the report. */
export function posterior(prior: readonly number[], p: number, x: number, y: number): number {
  const m = prior.length;
  const off = (1 - p) / m;
  const entry = (out: number, input: number): number => (out === input ? p + off : off);
  let denominator = 0;
  for (let i = 0; i < m; i++) denominator += prior[i]! * entry(y, i);
  return (prior[x]! * entry(y, x)) / denominator;
}

/** The perturbation matrix P[j][i] (column i = input, row j = output). */
export function perturbationMatrix(p: number, m: number): { diagonal: number; offDiagonal: number } {
  return { diagonal: p + (1 - p) / m, offDiagonal: (1 - p) / m };
}
