import { describe, expect, it } from 'vitest';
import { binomialUpperTail } from '../../dp/sampling-amplification.js';
import { rational } from '../../exact/rational.js';
import { discreteLaplace } from '../../random/exact-samplers.js';
import { SeededTestRandomSource } from '../../random/source.js';
import { UniformPerturber } from '../../randomized-response/perturbation/randomize.js';
import { agreementTest, type AgreementGroup } from '../../randomized-response/agreement-test.js';
import { discreteCumulant, logChernoffTail } from '../chernoff.js';
import { absLaplaceCumulant, laplaceErrorsTest, laplaceMarginalMaxTest } from '../laplace-errors.js';

describe('Chernoff bounds are never below the exact tail', () => {
  it('binomial sums: the bound is at least the exact tail, and within a factor n+1 of it', () => {
    for (const n of [1, 5, 30, 200]) {
      for (const p of [0.1, 0.5, 0.625, 0.9]) {
        const c = discreteCumulant([{ count: n, values: [0, 1], probs: [1 - p, p] }]);
        for (let t = 0; t <= n; t++) {
          const upper = Math.exp(logChernoffTail(c, t, 'upper'));
          const lower = Math.exp(logChernoffTail(c, t, 'lower'));
          const exactUpper = binomialUpperTail(n, p, t);
          const exactLower = binomialUpperTail(n, 1 - p, n - t);
          expect(upper).toBeGreaterThanOrEqual(exactUpper * (1 - 1e-9));
          expect(lower).toBeGreaterThanOrEqual(exactLower * (1 - 1e-9));
          if (t > n * p) expect(upper).toBeLessThanOrEqual(exactUpper * (n + 1) * (1 + 1e-9));
        }
      }
    }
  });

  it('Σ|Z| of discrete Laplace errors: the bound is at least the exact tail (convolution, n = 4)', () => {
    const b = 2;
    const a = Math.exp(-1 / b);
    const support = 200;
    const one = Array.from({ length: support }, (_, k) => (k === 0 ? (1 - a) / (1 + a) : (2 * (1 - a) * a ** k) / (1 + a)));
    let law = [1];
    for (let i = 0; i < 4; i++) {
      const next = new Array<number>(law.length + support - 1).fill(0);
      law.forEach((x, s) => one.forEach((y, k) => (next[s + k]! += x * y)));
      law = next;
    }
    const c = absLaplaceCumulant(4, b);
    expect(c.dk(0)).toBeCloseTo((4 * 2 * a) / (1 - a * a), 10);
    for (let t = 0; t < 60; t++) {
      const exactUpper = law.slice(t).reduce((x, y) => x + y, 0);
      const exactLower = law.slice(0, t + 1).reduce((x, y) => x + y, 0);
      expect(Math.exp(logChernoffTail(c, t, 'upper'))).toBeGreaterThanOrEqual(exactUpper * (1 - 1e-9));
      expect(Math.exp(logChernoffTail(c, t, 'lower'))).toBeGreaterThanOrEqual(exactLower * (1 - 1e-9));
    }
  });
});

/** Perturbed groups as the mechanism makes them: each record kept with p = 1/2, else uniform over m = 4. */
function perturbedGroups(seed: number, groups: readonly number[][], m: number): AgreementGroup[] {
  const source = new SeededTestRandomSource(seed);
  const perturber = new UniformPerturber(rational(1n, 2n), m);
  return groups.map((values) => {
    const truth = new Map<string, number>();
    const released = new Map<string, number>();
    for (const v of values) {
      truth.set(String(v), (truth.get(String(v)) ?? 0) + 1);
      const y = String(perturber.perturb(source, v));
      released.set(y, (released.get(y) ?? 0) + 1);
    }
    return { truth, released };
  });
}

const GROUPS = Array.from({ length: 150 }, (_, g) => Array.from({ length: 1 + (g % 4) }, (_, i) => (g * 3 + i * (g % 3)) % 4));

describe('the agreement test of randomized response', () => {
  it('singleton groups: T is the agreement count, Bin(n, p + (1−p)/m), and the bound is at least its exact tail', () => {
    const groups = perturbedGroups(1, Array.from({ length: 80 }, (_, g) => [g % 4]), 4);
    const t = agreementTest(groups, 0.5, 4);
    const agreed = groups.filter((g) => [...g.truth.keys()][0] === [...g.released.keys()][0]).length;
    expect(t.statistic).toBe(agreed);
    expect(t.expected).toBeCloseTo(80 * 0.625, 10);
    expect(Math.exp(t.logUpper)).toBeGreaterThanOrEqual(binomialUpperTail(80, 0.625, agreed) * (1 - 1e-9));
  });

  it('correct perturbations pass (200 seeds); every value put back fails; values drawn with no retention fail', () => {
    for (let seed = 0; seed < 200; seed++) expect(agreementTest(perturbedGroups(seed, GROUPS, 4), 0.5, 4).ok).toBe(true);
    const truth = perturbedGroups(0, GROUPS, 4).map((g) => ({ truth: g.truth, released: g.truth }));
    const back = agreementTest(truth, 0.5, 4);
    expect(back.ok).toBe(false);
    expect(back.logUpper).toBeLessThan(back.logLower);
    const fresh = perturbedGroups(7, GROUPS.map((g) => g.map((_, i) => (i * 5 + g.length) % 4)), 4).map((g, i) => ({ truth: perturbedGroups(0, GROUPS, 4)[i]!.truth, released: g.released }));
    expect(agreementTest(fresh, 0.5, 4).ok).toBe(false);
  });
});

describe('the tests of dp noise', () => {
  const draws = (seed: number, n: number, b: bigint): number[] => {
    const source = new SeededTestRandomSource(seed);
    return Array.from({ length: n }, () => Number(discreteLaplace(source, rational(b))));
  };

  it('discrete Laplace errors of the stated scale pass (200 seeds); none, or ten times the scale, fail', () => {
    for (let seed = 0; seed < 200; seed++) expect(laplaceErrorsTest(draws(seed, 40, 3n), 3).ok).toBe(true);
    const none = laplaceErrorsTest(new Array<number>(40).fill(0), 3);
    expect(none.ok).toBe(false);
    expect(none.detectsNoiseFree).toBe(true);
    expect(laplaceErrorsTest(draws(1, 40, 30n), 3).ok).toBe(false);
    // Three answers cannot show that noise is missing: said, not claimed.
    expect(laplaceErrorsTest([0, 0, 0], 3)).toMatchObject({ ok: true, detectsNoiseFree: false });
  });

  it('correlated noise: the largest error of none or of far too much noise fails; of Laplace draws passes', () => {
    expect(laplaceMarginalMaxTest(new Array<number>(17).fill(0), 3, 1e-6).ok).toBe(false);
    expect(laplaceMarginalMaxTest([...new Array<number>(16).fill(0), 200], 3, 1e-6).ok).toBe(false);
    for (let seed = 0; seed < 50; seed++) expect(laplaceMarginalMaxTest(draws(seed, 17, 3n), 3, 1e-6).ok).toBe(true);
    // At b = 1 the printed rounding (1e-6) leaves noise-free answers plausible: said, not claimed.
    expect(laplaceMarginalMaxTest(new Array<number>(17).fill(0), 1, 1e-6)).toMatchObject({ ok: true, detectsNoiseFree: false });
    expect(laplaceMarginalMaxTest(new Array<number>(17).fill(0), 3, 1e-6).detectsNoiseFree).toBe(true);
  });
});
