import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { groupRows } from '../../table/micro-groups.js';
import { SeededTestRandomSource } from '../../random/source.js';
import { rationalFromNumber } from '../../exact/rational.js';
import { reconstructionRelease } from '../release.js';
import { tableFromRows } from '../../table/table.js';
import {
  conversion, groupPasses, logL1, logL2, maxEpsilon, sizeThreshold, tailBound, type PrivacyParameters,
} from '../bounds.js';

const params = (p: number, m: number, epsilon: number, delta: number, bound: 'simplified' | 'full'): PrivacyParameters => ({
  p, m, epsilon, delta, bound,
});

describe('(ε,δ) test and s_g against the worked examples', () => {
  it('Example 1 group: f = 1, p = 4/9, m = 10, ε = 0.5, δ = 0.3', () => {
    const p = 4 / 9;
    const c = conversion(20, 1, p, 10, 0.5);
    expect(c.w).toBeCloseTo(0.5, 12);
    expect(c.theta).toBeCloseTo(4 / 9, 12);
    expect(maxEpsilon(1, p, 10)).toBeCloseTo(1.125, 12);
    expect(sizeThreshold(1, params(p, 10, 0.5, 0.3, 'simplified'))).toBeCloseTo(24.380449, 5);
    expect(sizeThreshold(1, params(p, 10, 0.5, 0.3, 'full'))).toBeCloseTo(20.424268, 5);
    for (const bound of ['simplified', 'full'] as const) {
      expect(groupPasses(20, 20, params(p, 10, 0.5, 0.3, bound))).toBe(true);
      expect(groupPasses(30, 30, params(p, 10, 0.5, 0.3, bound))).toBe(false);
    }
    expect(tailBound(30, 1, params(p, 10, 0.5, 0.3, 'simplified')).lower).toBeCloseTo(0.227301, 6);
    expect(tailBound(30, 1, params(p, 10, 0.5, 0.3, 'full')).lower).toBeCloseTo(0.170598, 6);
  });

  it('counts (5,15), p = 0.5, m = 5, ε = 0.3, δ = 0.3', () => {
    const c = conversion(20, 0.75, 0.5, 5, 0.3);
    expect(c.theta).toBeCloseTo(0.236842, 6);
    expect(c.mu).toBeCloseTo(9.5, 12);
    expect(Math.exp(logL2(c.theta, c.mu))).toBeCloseTo(0.766096, 6);
    expect(Math.exp(logL1(c.theta, c.mu))).toBeCloseTo(0.747968, 6);
    expect(sizeThreshold(0.75, params(0.5, 5, 0.3, 0.3, 'simplified'))).toBeCloseTo(90.37228, 5);
    expect(sizeThreshold(0.75, params(0.5, 5, 0.3, 0.3, 'full'))).toBeCloseTo(82.919634, 5);
    expect(groupPasses(20, 15, params(0.5, 5, 0.3, 0.3, 'full'))).toBe(true);
  });

  it('EDU-like, boundary and θ = 1 cases', () => {
    expect(conversion(1, 0.72, 0.5, 14, 0.3).theta).toBeCloseTo(0.272924, 6);
    expect(sizeThreshold(0.72, params(0.5, 14, 0.3, 0.3, 'simplified'))).toBeCloseTo(81.692256, 5);
    expect(sizeThreshold(0.72, params(0.5, 14, 0.3, 0.3, 'full'))).toBeCloseTo(73.87061, 5);
    expect(maxEpsilon(1, 0.5, 2)).toBeCloseTo(1.5, 12);
    expect(conversion(1, 1, 0.5, 2, 1.25).theta).toBeCloseTo(0.833333, 6);
    expect(sizeThreshold(1, params(0.5, 2, 1.25, 0.2, 'simplified'))).toBeCloseTo(6.180242, 5);
    expect(sizeThreshold(1, params(0.5, 2, 1.25, 0.2, 'full'))).toBeCloseTo(4.01326, 5);
    expect(sizeThreshold(1, params(0.5, 2, 1.5, 0.2, 'simplified'))).toBeCloseTo(4.291834, 5);
    expect(sizeThreshold(1, params(0.5, 2, 1.5, 0.2, 'full'))).toBeCloseTo(2.145917, 5);
    expect(maxEpsilon(0.8, 0.5, 2)).toBeCloseTo(1.625, 12);
  });

  it('the full bounds are stricter and the threshold form equals the tail-bound test', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.05, max: 0.95, noNaN: true }),
        fc.integer({ min: 2, max: 60 }),
        fc.double({ min: 0.02, max: 1, noNaN: true }),
        fc.double({ min: 0.01, max: 0.99, noNaN: true }),
        fc.integer({ min: 1, max: 400 }),
        fc.integer({ min: 1, max: 400 }),
        (p, m, eps, delta, a, b) => {
          const n = Math.max(a, b);
          const top = Math.min(a, b);
          const fMax = top / n;
          const epsilon = Math.min(eps, maxEpsilon(fMax, p, m));
          for (const bound of ['simplified', 'full'] as const) {
            const pr = params(p, m, epsilon, delta, bound);
            const { lower, upper } = tailBound(n, fMax, pr);
            expect(lower).toBeLessThanOrEqual(upper + 1e-12);
            const s = sizeThreshold(fMax, pr);
            if (Math.abs(n - s) > 1e-6 * s) expect(delta <= lower).toBe(n <= s);
          }
          expect(sizeThreshold(fMax, params(p, m, epsilon, delta, 'full'))).toBeLessThanOrEqual(
            sizeThreshold(fMax, params(p, m, epsilon, delta, 'simplified')) * (1 + 1e-12),
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('beyond ε_max the test fails; the engine refuses invalid parameters', () => {
  const params = { p: 0.5, m: 2, epsilon: 2, delta: 0.3, bound: 'simplified' as const };
  it('θ > 1 (ε past ε_max for this f_max) passes no group size, instead of being clamped to θ = 1', () => {
    // f_max = 1: w = 0.75, θ = ε·p·f/w = 4/3 > 1; ε_max = 1 + (1−p)/m/(p·f) = 1.5.
    expect(maxEpsilon(1, 0.5, 2)).toBeCloseTo(1.5, 12);
    expect(sizeThreshold(1, params)).toBe(0);
    expect(groupPasses(1, 1, params)).toBe(false);
    expect(groupPasses(5, 5, { ...params, bound: 'full' })).toBe(false);
    // At ε ≤ ε_max the threshold is positive as before.
    expect(sizeThreshold(1, { ...params, epsilon: 1.4 })).toBeGreaterThan(0);
  });

  it('rejects ε, δ, p and m outside their ranges with a RangeError', () => {
    expect(() => sizeThreshold(0.5, { ...params, epsilon: Infinity })).toThrow(RangeError);
    expect(() => sizeThreshold(0.5, { ...params, epsilon: 0 })).toThrow(RangeError);
    expect(() => sizeThreshold(0.5, { ...params, delta: 1 })).toThrow(RangeError);
    expect(() => sizeThreshold(0.5, { ...params, p: 0 })).toThrow(RangeError);
    expect(() => sizeThreshold(0.5, { ...params, m: 0 })).toThrow(RangeError);
  });

  it('Algorithm 1 refuses an ε beyond some group\'s ε_max, whoever calls it', () => {
    const table = tableFromRows(['q', 's'], [['a', 'x'], ['a', 'x'], ['b', 'y'], ['b', 'x']]);
    const grouping = groupRows([table.columns[0]!], table.rowCount);
    expect(() =>
      reconstructionRelease(new SeededTestRandomSource(1), {
        grouping, values: Uint32Array.from(table.columns[1]!.codes, (c) => c - 1), retention: rationalFromNumber(0.5),
        params: { ...params, epsilon: 1.6 }, options: { strict: true },
      }),
    ).toThrow(/outside the valid range/);
  });
});
