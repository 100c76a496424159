import { describe, expect, it } from 'vitest';
import { bernoulliExp, bernoulliExpMinusOne } from '../../random/exact-samplers.js';
import { exactCandidates, exponentialMechanism, type Candidates } from '../exponential-mechanism.js';
import { SeededTestRandomSource } from '../../random/source.js';
import { rational } from '../../exact/rational.js';
import { chiSquare, chiSquareCritical } from '../../../../test/stats.js';

describe('exact exponential mechanism', () => {
  const scores = [0, 3, 5, 10, 10, 2];
  const epsilon = rational(1n, 2n);
  const sensitivity = rational(1n);
  // Pr[i] ∝ exp(ε·u_i/(2Δ)) = exp(u_i/4).
  const weights = scores.map((u) => Math.exp(u / 4));
  const expected = weights.map((w) => w / weights.reduce((a, b) => a + b, 0));
  const draws = 40_000;

  function histogram(candidates: Candidates, seed: number): number[] {
    const source = new SeededTestRandomSource(seed);
    const counts = new Array<number>(scores.length).fill(0);
    for (let t = 0; t < draws; t++) counts[exponentialMechanism(source, candidates, epsilon, sensitivity)]!++;
    return counts;
  }

  it('draws each candidate with probability ∝ exp(ε·u/(2Δ)) (χ² goodness of fit)', () => {
    const counts = histogram(exactCandidates(scores), 11);
    expect(chiSquare(counts, expected.map((p) => p * draws))).toBeLessThan(chiSquareCritical(scores.length - 1));
  });

  it('also when the gaps span several whole e^−1 factors (γ = 7, 4, 1, 0)', () => {
    const wide = [0, 6, 12, 14];
    const w = wide.map((u) => Math.exp((u - 14) / 2));
    const source = new SeededTestRandomSource(14);
    const counts = new Array<number>(wide.length).fill(0);
    for (let t = 0; t < draws; t++) counts[exponentialMechanism(source, exactCandidates(wide), rational(1n), rational(1n))]!++;
    expect(chiSquare(counts, w.map((x) => (x / w.reduce((a, b) => a + b, 0)) * draws))).toBeLessThan(chiSquareCritical(wide.length - 1));
  });

  it('gives the same distribution when some scores are only bounded, resolving them only when needed', () => {
    const bounds = [4, 3, 7, 10, 10, 9];
    let resolved = 0;
    const candidates: Candidates = {
      value: bounds,
      isExact: (i) => bounds[i] === scores[i],
      resolve: (i) => {
        resolved++;
        return scores[i]!;
      },
    };
    const counts = histogram(candidates, 12);
    expect(chiSquare(counts, expected.map((p) => p * draws))).toBeLessThan(chiSquareCritical(scores.length - 1));
    expect(resolved).toBeGreaterThan(0);
  });

  it('a wrong distribution fails the same test', () => {
    const counts = histogram(exactCandidates(scores.map((u) => u + (u === 0 ? 4 : 0))), 13);
    expect(chiSquare(counts, expected.map((p) => p * draws))).toBeGreaterThan(chiSquareCritical(scores.length - 1));
  });

  it('rejects a resolved score above its bound', () => {
    const candidates: Candidates = { value: [1, 1], isExact: () => false, resolve: () => 5 };
    expect(() => exponentialMechanism(new SeededTestRandomSource(1), candidates, epsilon, sensitivity)).toThrow(/above its bound/);
  });
});

describe('exact Bernoulli(e^−γ) coins', () => {
  it('succeed with probability e^−γ (χ², 1 degree of freedom, per γ)', () => {
    const source = new SeededTestRandomSource(21);
    const draws = 60_000;
    const cases: [string, () => boolean, number][] = [
      ['e^−1, small integers', () => bernoulliExpMinusOne(source), Math.exp(-1)],
      ['γ = 3/10', () => bernoulliExp(source, rational(3n, 10n)), Math.exp(-0.3)],
      ['γ = 5/2', () => bernoulliExp(source, rational(5n, 2n)), Math.exp(-2.5)],
    ];
    for (const [name, coin, p] of cases) {
      let heads = 0;
      for (let t = 0; t < draws; t++) if (coin()) heads++;
      expect(chiSquare([heads, draws - heads], [p * draws, (1 - p) * draws]), name).toBeLessThan(chiSquareCritical(1));
    }
  });
});
