import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { effectiveEpsilon, quadraticFormInverse } from '../accounting.js';
import { discreteGaussian, discreteLaplace, discreteLaplacePmf, gridExponential, laplaceQuantile, snap } from '../../../common/random/exact-samplers.js';
import { filteringAttack, wienerMse, wienerWeights } from '../filtering-attack.js';
import { glmNoise, StreamingNoise } from '../glm.js';
import { differentialInference } from '../inference-attack.js';
import { SeededTestRandomSource } from '../../../common/random/source.js';
import { rational } from '../../../common/exact/rational.js';
import { chiSquare, chiSquareCritical } from '../../../../test/stats.js';

/** Kolmogorov–Smirnov statistic against a CDF; the 0.1% critical value is 1.949/√n. */
function ks(samples: number[], cdf: (x: number) => number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  let d = 0;
  sorted.forEach((x, i) => {
    const f = cdf(x);
    d = Math.max(d, Math.abs(f - i / sorted.length), Math.abs((i + 1) / sorted.length - f));
  });
  return d;
}
const laplaceCdf = (b: number) => (x: number) => (x < 0 ? 0.5 * Math.exp(x / b) : 1 - 0.5 * Math.exp(-x / b));
const correlation = (a: readonly number[], b: readonly number[]): number => {
  const n = a.length;
  const ma = a.reduce((s, x) => s + x, 0) / n;
  const mb = b.reduce((s, x) => s + x, 0) / n;
  let ab = 0, aa = 0, bb = 0;
  for (let i = 0; i < n; i++) {
    ab += (a[i]! - ma) * (b[i]! - mb);
    aa += (a[i]! - ma) ** 2;
    bb += (b[i]! - mb) ** 2;
  }
  return ab / Math.sqrt(aa * bb);
};

describe('exact samplers', () => {
  it('discrete Laplace probabilities for ε = 1, Δ = 1', () => {
    expect(discreteLaplacePmf(0, 1)).toBeCloseTo(0.462117, 6);
    expect(discreteLaplacePmf(1, 1)).toBeCloseTo(0.170003, 6);
    expect(discreteLaplacePmf(-1, 1)).toBeCloseTo(0.170003, 6);
    expect(discreteLaplacePmf(-3, 1)).toBeCloseTo(0.023007, 6);
  });

  it('the continuous inverse CDF (tests and simulations only)', () => {
    expect(laplaceQuantile(0.25, 10)).toBeCloseTo(-6.931472, 6);
    expect(laplaceQuantile(0.75, 10)).toBeCloseTo(6.931472, 6);
    expect(laplaceQuantile(0.999, 10)).toBeCloseTo(62.146081, 6);
  });

  for (const [num, den] of [[1n, 1n], [5n, 2n]] as const) {
    it(`the discrete Laplace sampler of scale ${num}/${den} matches its PMF (χ², 0.1%)`, () => {
      const source = new SeededTestRandomSource(17);
      const scale = Number(num) / Number(den);
      const draws = 30_000;
      const counts = new Map<number, number>();
      for (let i = 0; i < draws; i++) {
        const z = Number(discreteLaplace(source, rational(num, den)));
        counts.set(z, (counts.get(z) ?? 0) + 1);
      }
      // Cells −6σ..6σ plus two tails.
      const limit = Math.ceil(6 * scale);
      const observed: number[] = [];
      const expected: number[] = [];
      let tail = 0;
      for (const [z, c] of counts) if (Math.abs(z) > limit) tail += c;
      for (let z = -limit; z <= limit; z++) {
        observed.push(counts.get(z) ?? 0);
        expected.push(draws * discreteLaplacePmf(z, scale));
      }
      const tailP = 1 - expected.reduce((a, b) => a + b, 0) / draws;
      observed.push(tail);
      expected.push(draws * tailP);
      expect(chiSquare(observed, expected)).toBeLessThan(chiSquareCritical(observed.length - 1));
    });
  }

  it('the discrete Gaussian matches its PMF and the grid exponential is Exp(1) (KS)', () => {
    const source = new SeededTestRandomSource(5);
    const sigma2 = 4;
    const norm = Array.from({ length: 41 }, (_, i) => Math.exp(-((i - 20) ** 2) / (2 * sigma2))).reduce((a, b) => a + b, 0);
    const counts = new Map<number, number>();
    const draws = 20_000;
    for (let i = 0; i < draws; i++) {
      const z = Number(discreteGaussian(source, rational(4n)));
      counts.set(z, (counts.get(z) ?? 0) + 1);
    }
    const observed: number[] = [];
    const expected: number[] = [];
    for (let z = -7; z <= 7; z++) {
      observed.push(counts.get(z) ?? 0);
      expected.push((draws * Math.exp(-(z * z) / (2 * sigma2))) / norm);
    }
    expect(chiSquare(observed, expected)).toBeLessThan(chiSquareCritical(observed.length - 1));
    const exps = Array.from({ length: 5000 }, () => gridExponential(source));
    expect(ks(exps, (x) => 1 - Math.exp(-x))).toBeLessThan(1.949 / Math.sqrt(5000));
    expect(snap(0.1234567)).toBe(Math.round(0.1234567 * 2 ** 20) / 2 ** 20);
  });
});

describe('generalized Laplace noise', () => {
  it('marginals are Laplace(b) (KS) and the correlation matches AR(1) and blocks', () => {
    const source = new SeededTestRandomSource(99);
    const b = 3;
    const first: number[] = [];
    const second: number[] = [];
    const third: number[] = [];
    const blockA: number[] = [];
    const blockB: number[] = [];
    const other: number[] = [];
    for (let i = 0; i < 4000; i++) {
      const n = glmNoise(source, { kind: 'ar1', rho: 0.6 }, 3, b);
      first.push(n[0]!);
      second.push(n[1]!);
      third.push(n[2]!);
      const m = glmNoise(source, { kind: 'block', rho: 0.5, blockOf: [0, 0, 1] }, 3, b);
      blockA.push(m[0]!);
      blockB.push(m[1]!);
      other.push(m[2]!);
    }
    const critical = 1.949 / Math.sqrt(4000);
    expect(ks(first, laplaceCdf(b))).toBeLessThan(critical);
    expect(ks(third, laplaceCdf(b))).toBeLessThan(critical);
    expect(ks(other, laplaceCdf(b))).toBeLessThan(critical);
    expect(correlation(first, second)).toBeCloseTo(0.6, 1);
    expect(correlation(first, third)).toBeCloseTo(0.36, 1);
    expect(correlation(blockA, blockB)).toBeCloseTo(0.5, 1);
    expect(Math.abs(correlation(blockA, other))).toBeLessThan(0.1);
  });

  it('the streaming iteration keeps Laplace(b) marginals and lag-one correlation ρ in both variants', () => {
    for (const variant of ['keep', 'refresh'] as const) {
      const source = new SeededTestRandomSource(7);
      const xs: number[] = [];
      const ys: number[] = [];
      for (let run = 0; run < 3000; run++) {
        const stream = new StreamingNoise(source, 2, 0.7, variant);
        stream.next();
        xs.push(stream.next());
        ys.push(stream.next());
      }
      expect(ks(xs, laplaceCdf(2)), variant).toBeLessThan(1.949 / Math.sqrt(3000));
      expect(correlation(xs, ys), variant).toBeCloseTo(0.7, 1);
    }
  });
});

describe('accounting and attacks', () => {
  it('ε_eff for one-person changes under AR(1) correlation', () => {
    const ar = (rho: number) => ({ kind: 'ar1', rho }) as const;
    expect(effectiveEpsilon(ar(0.5), [1, 0], 1)).toBeCloseTo(1.1547, 4);
    expect(effectiveEpsilon(ar(0.9), [1, 0], 1)).toBeCloseTo(2.2942, 4);
    expect(effectiveEpsilon(ar(0.99), [1, 0], 1)).toBeCloseTo(7.0888, 4);
    expect(effectiveEpsilon(ar(0.9), [1, 1], 1)).toBeCloseTo(1.026, 3);
    expect(effectiveEpsilon({ kind: 'independent' }, [1, 1], 1)).toBeCloseTo(Math.SQRT2, 12);
    // Block inverse agrees with AR(1) for two answers in one block.
    expect(effectiveEpsilon({ kind: 'block', rho: 0.9, blockOf: [0, 0] }, [1, 0], 1)).toBeCloseTo(2.2942, 4);
  });

  it('ΔᵀR⁻¹Δ of AR(1) chains equals the inverse of the block-diagonal correlation matrix (property)', () => {
    /** Solves R x = Δ by Gaussian elimination and returns Δᵀx. */
    const direct = (rho: number, chainOf: readonly number[], delta: readonly number[]): number => {
      const d = delta.length;
      const a = Array.from({ length: d }, (_, i) => Array.from({ length: d + 1 }, (_, j) => (j === d ? delta[i]! : chainOf[i] === chainOf[j] && chainOf.slice(Math.min(i, j), Math.max(i, j) + 1).every((c) => c === chainOf[i]) ? rho ** Math.abs(i - j) : 0)));
      for (let col = 0; col < d; col++) {
        for (let row = col + 1; row < d; row++) {
          const f = a[row]![col]! / a[col]![col]!;
          for (let j = col; j <= d; j++) a[row]![j]! -= f * a[col]![j]!;
        }
      }
      const x = new Array<number>(d).fill(0);
      for (let i = d - 1; i >= 0; i--) x[i] = (a[i]![d]! - a[i]!.slice(i + 1, d).reduce((sum, v, k) => sum + v * x[i + 1 + k]!, 0)) / a[i]![i]!;
      return delta.reduce((sum, v, i) => sum + v * x[i]!, 0);
    };
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: -1, max: 1 })), { minLength: 1, maxLength: 9 }), fc.double({ min: -0.9, max: 0.9, noNaN: true }), (cells, rho) => {
        // Chains are runs of equal ids; sorting keeps each id in one run.
        const sorted = [...cells].sort((x, y) => x[0] - y[0]);
        const chainOf = sorted.map(([c]) => c);
        const delta = sorted.map(([, v]) => v);
        expect(quadraticFormInverse({ kind: 'ar1', rho, chainOf }, delta)).toBeCloseTo(direct(rho, chainOf, delta), 6);
      }),
      { numRuns: 200 },
    );
    // Without chains, one AR(1) along everything.
    expect(quadraticFormInverse({ kind: 'ar1', rho: 0.5 }, [1, 0, 1])).toBeCloseTo(direct(0.5, [0, 0, 0], [1, 0, 1]), 9);
  });

  it('Wiener smoother MSEs: IID noise is filtered, GLM noise of the signal’s shape is not (G = 1)', () => {
    const rx = (lag: number) => 100 * 0.9 ** lag;
    const iid = (lag: number) => (lag === 0 ? 200 : 0);
    const glm = (lag: number) => 200 * 0.9 ** lag;
    const expected: [number, number][] = [[0, 66.667], [1, 44.648], [2, 36.91], [5, 31.23], [10, 30.488], [20, 30.462]];
    for (const [k, mse] of expected) {
      expect(wienerMse(rx, wienerWeights(rx, iid, k))).toBeCloseTo(mse, 2);
      expect(wienerMse(rx, wienerWeights(rx, glm, k))).toBeCloseTo(66.667, 2);
    }
    const h = wienerWeights(rx, glm, 5);
    expect(h[5]).toBeCloseTo(1 / 3, 9);
    expect((100 * 200) / 300 / wienerMse(rx, wienerWeights(rx, iid, 10))).toBeCloseTo(2.19, 2);
  });

  it('the filtering attack on simulated releases: gain above 1 for IID noise, about 1 for GLM noise', () => {
    const source = new SeededTestRandomSource(11);
    const T = 3000;
    const truth: number[] = [];
    let x = 0;
    for (let t = 0; t < T; t++) {
      x = 0.9 * x + Math.sqrt(1 - 0.81) * 10 * Math.sqrt(2 * gridExponential(source)) * 0.7071 * 1;
      truth.push(1000 + x);
    }
    const rx = (lag: number) => 100 * 0.9 ** lag;
    const iid = Array.from({ length: T }, (_, t) => truth[t]! + glmNoise(source, { kind: 'independent' }, 1, 10)[0]!);
    const stream = new StreamingNoise(source, 10, 0.9, 'keep');
    const correlated = truth.map((v) => v + stream.next());
    const g1 = filteringAttack(truth, iid, rx, (lag) => (lag === 0 ? 200 : 0), 10);
    expect(g1.gain).toBeGreaterThan(1.5);
    const g2 = filteringAttack(truth, correlated, rx, (lag) => 200 * 0.9 ** lag, 10);
    expect(g2.weights[10]).toBeCloseTo(1 / 3, 6);
    // The claim itself: filtering gains about nothing over shrinkage against noise correlated like the
    // data (1.19 here), against IID noise a lot (3.88). IID noise in the stream would fail this.
    expect(g2.gain).toBeGreaterThan(0.7);
    expect(g2.gain).toBeLessThan(1.4);
    expect(g1.gain).toBeGreaterThan(2 * g2.gain);
  });

  it('differential inference: the multipliers 1.02 and 1.0002 and the variance 0.025 of the paper', () => {
    const source = new SeededTestRandomSource(3);
    const r100 = differentialInference(source, 100, 50, 10, 0.2, 1000);
    expect(r100.meanApprox / 0.5).toBeCloseTo(1.02, 12);
    expect(r100.sdApprox ** 2).toBeCloseTo(0.025, 12);
    expect(differentialInference(source, 1000, 500, 10, 0.2, 1000).meanApprox / 0.5).toBeCloseTo(1.0002, 12);
    // The EDU #7 example of the differential-inference attack: o1 = 102, o2 = 73, λ = 0.1, ε = 0.2 → 0.1857 and 0.1537.
    const edu = differentialInference(new SeededTestRandomSource(4), 102, 73, 10, 0.2, 200_000);
    expect(edu.pAbove).toBeCloseTo(0.1857, 2);
    expect(edu.pBelow).toBeCloseTo(0.1537, 2);
  });
});
