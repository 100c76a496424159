import { describe, expect, it } from 'vitest';
import { amplifiedEpsilon, binomialUpperTail, deltaFor, fixedSizeSubsampleEpsilon, largestBeta, smallestK, tailTerm, gammaOf } from '../sampling-amplification.js';

/** Exact Pr[Bin(n, β) ≥ from] with rationals: the oracle for small n. */
function exactTail(n: number, num: bigint, den: bigint, from: number): number {
  let sum = 0n;
  let choose = 1n;
  for (let j = 0; j <= n; j++) {
    if (j > 0) choose = (choose * BigInt(n - j + 1)) / BigInt(j);
    if (j >= from) sum += choose * num ** BigInt(j) * (den - num) ** BigInt(n - j);
  }
  return Number(sum) / Number(den ** BigInt(n));
}

const TABLE: [number, number, number, number][] = [
  // k, β, ε, δ
  [5, 0.05, 0.5, 1.119e-4], [5, 0.05, 1, 6.027e-6], [5, 0.05, 2, 3.125e-7], [5, 0.1, 0.5, 2.751e-3], [5, 0.1, 1, 1.765e-4], [5, 0.1, 2, 1.0e-5],
  [5, 0.25, 0.5, 4.893e-2], [5, 0.25, 1, 4.639e-3], [5, 0.25, 2, 9.766e-4], [5, 0.5, 1, 1.094e-1], [5, 0.5, 2, 3.125e-2],
  [10, 0.05, 0.5, 6.112e-8], [10, 0.05, 1, 2.324e-10], [10, 0.05, 2, 1.025e-12], [10, 0.1, 0.5, 2.072e-5], [10, 0.1, 1, 6.84e-8], [10, 0.1, 2, 1.0e-9],
  [10, 0.25, 0.5, 5.422e-3], [10, 0.25, 1, 1.261e-4], [10, 0.25, 2, 8.106e-6], [10, 0.5, 1, 1.929e-2], [10, 0.5, 2, 9.766e-4],
  [20, 0.05, 0.5, 2.499e-14], [20, 0.05, 1, 1.76e-19], [20, 0.05, 2, 1.998e-24], [20, 0.1, 0.5, 1.606e-9], [20, 0.1, 1, 4.073e-14], [20, 0.1, 2, 1.891e-18],
  [20, 0.25, 0.5, 8.833e-5], [20, 0.25, 1, 1.21e-7], [20, 0.25, 2, 1.22e-10], [20, 0.5, 1, 7.719e-4], [20, 0.5, 2, 1.049e-5],
  [50, 0.05, 0.5, 1.098e-33], [50, 0.05, 1, 3.697e-46], [50, 0.05, 2, 1.652e-57], [50, 0.1, 0.5, 1.296e-21], [50, 0.1, 1, 1.475e-32], [50, 0.1, 2, 1.748e-43],
  [50, 0.25, 0.5, 1.074e-9], [50, 0.25, 1, 1.759e-16], [50, 0.25, 2, 6.731e-25], [50, 0.5, 1, 2.294e-7], [50, 0.5, 2, 2.76e-12],
];

describe('δ = d(k, β, ε)', () => {
  it('reproduces every worked value of the table', () => {
    for (const [k, beta, epsilon, delta] of TABLE) {
      expect(deltaFor(k, beta, epsilon).delta / delta, `k=${k} β=${beta} ε=${epsilon}`).toBeCloseTo(1, 3);
    }
  });

  it('handles the sawtooth: k = 7, β = 0.5, ε = 1.5 has its maximum at n = 9, not n_m = 7', () => {
    const gamma = gammaOf(0.5, 1.5);
    expect(gamma).toBeCloseTo(0.888435, 6);
    expect(tailTerm(7, 0.5, gamma)).toBeCloseTo(1 / 128, 15);
    expect(tailTerm(8, 0.5, gamma)).toBeCloseTo(1 / 256, 15);
    expect(tailTerm(9, 0.5, gamma)).toBeCloseTo(5 / 256, 15);
    expect(tailTerm(10, 0.5, gamma)).toBeCloseTo(11 / 1024, 15);
    const r = deltaFor(7, 0.5, 1.5);
    expect(r).toMatchObject({ argmax: 9, nMin: 7 });
    expect(r.delta).toBeCloseTo(0.01953125, 15);
  });

  it('the maximum positions of the spec: d(20, 0.1, 1) at n = 29, d(5, 0.1, 1) at n = 7', () => {
    expect(deltaFor(20, 0.1, 1)).toMatchObject({ argmax: 29, nMin: 29 });
    expect(deltaFor(20, 0.1, 1).delta).toBeCloseTo(4.0725e-14, 17);
    expect(deltaFor(5, 0.1, 1).argmax).toBe(7);
  });

  it('log-space tails agree with exact rational sums', () => {
    for (const [n, num, den] of [[30, 1n, 10n], [57, 1n, 4n], [200, 1n, 2n]] as const) {
      for (const from of [0, 3, Math.floor(n / 3), n - 2, n]) {
        const exact = exactTail(n, num, den, from);
        expect(binomialUpperTail(n, Number(num) / Number(den), from) / exact).toBeCloseTo(1, 9);
      }
    }
  });

  it('rejects ε below −ln(1−β), β outside (0,1) and k < 1', () => {
    expect(() => deltaFor(5, 0.5, 0.5)).toThrow(/at least −ln\(1−β\) = 0\.693147/);
    expect(() => deltaFor(5, 1, 1)).toThrow(/strictly between 0 and 1/);
    expect(() => deltaFor(0, 0.1, 1)).toThrow(/positive integer/);
  });
});

describe('inverse problems and subsampling bounds', () => {
  it('smallest k for a target (ε, δ, β)', () => {
    expect(smallestK(0.1, 1, 1e-6)).toBe(9);
    expect(smallestK(0.25, 1, 1e-6)).toBe(18);
    expect(smallestK(0.5, 2, 1e-6)).toBe(24);
    expect(smallestK(0.05, 0.5, 1e-4)).toBe(6);
    expect(smallestK(0.1, 1, 1e-9)).toBe(14);
  });

  it('largest β: 1 − e^{−ε} from ε alone, and verified for (k, ε, δ)', () => {
    expect(largestBeta(1000, 1, 0.5)).toBeCloseTo(1 - Math.exp(-1), 6);
    const b = largestBeta(10, 1, 1e-6)!;
    expect(deltaFor(10, b, 1).delta).toBeLessThanOrEqual(1e-6);
    expect(deltaFor(10, Math.min(b * 1.01, 0.63), 1).delta).toBeGreaterThan(1e-6);
  });

  it('ε′ of Theorem 2 and Poisson amplification', () => {
    expect(fixedSizeSubsampleEpsilon(Math.LN2, 0.1)).toBeCloseTo(0.200671, 6);
    expect(fixedSizeSubsampleEpsilon(1, 0.5)).toBeCloseTo(1.313262, 6);
    expect(fixedSizeSubsampleEpsilon(0.1, 0.01)).toBeCloseTo(0.011101, 6);
    expect(fixedSizeSubsampleEpsilon(2, 0.2)).toBeCloseTo(1.046359, 6);
    expect(amplifiedEpsilon(Math.LN2, 0.1)).toBeCloseTo(0.09531, 5);
    expect(amplifiedEpsilon(1, 0.5)).toBeCloseTo(0.620115, 6);
    expect(amplifiedEpsilon(2, 0.2)).toBeCloseTo(0.823215, 6);
  });
});
