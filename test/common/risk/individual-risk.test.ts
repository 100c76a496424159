import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { benedettiFranconiRisk, individualRisk, IndividualRiskInputError, IndividualRiskWorkLimitError } from '../../../src/common/risk/individual-risk.js';

/** E[1/F | f] under the negative binomial, summed term by term: the definition the closed forms solve. */
function expectedInverse(f: number, p: number): number {
  const q = 1 - p;
  let term = Math.pow(p, f); // h = f: C(f−1, f−1) p^f
  let sum = 0;
  for (let h = f; ; h++) {
    sum += term / h;
    term *= (q * h) / (h - f + 1);
    if (term / h < 1e-17 * sum && h > f + 10) return sum;
  }
}

// sdcMicro's own test fixture (tests/testthat/test_indivRisk.R, freqCalc.R): three key variables and
// francdat's weights. Published figures: indivRisk(method = "approx") and freqCalc's fk and Fk.
const sdcMicroKeys = [
  [2, 3, 1],
  [3, 3, 3],
  [2, 3, 1],
  [2, 3, 2],
  [3, 3, 1],
  [3, 3, 1],
  [1, 4, 1],
  [2, 3, 1],
];
const sdcMicroWeights = [18.0, 45.5, 39.0, 17.0, 92.0, 8.0, 123.5, 51];

describe('individual risk: sdcMicro fixtures', () => {
  test('weighted, no missing values: fk, Fk and indivRisk approx to the 8 published digits', () => {
    const result = individualRisk(sdcMicroKeys, { weights: sdcMicroWeights });
    expect([...result.fk]).toEqual([3, 1, 3, 1, 2, 2, 1, 3]);
    expect([...result.Fk]).toEqual([108.0, 45.5, 108.0, 17.0, 100.0, 100.0, 123.5, 108.0]);
    const published = [0.01369863, 0.08579129, 0.01369863, 0.17707583, 0.01877883, 0.01877883, 0.03931625, 0.01369863];
    result.risk.forEach((r, i) => expect(Math.abs(r - published[i]!)).toBeLessThan(5e-9));
    // measure_risk's global figures are the sum and the mean of these.
    const sum = published.reduce((a, b) => a + b, 0);
    expect(result.expectedReidentifications).toBeCloseTo(sum, 7);
    expect(result.globalRisk).toBeCloseTo(sum / 8, 8);
    expect(result.globalRiskPercent).toBeCloseTo((100 * sum) / 8, 6);
  });

  test("sdcMicro's method = \"exact\" for fk = 3 is μ-ARGUS's closed form (0.01355297)", () => {
    const result = individualRisk(sdcMicroKeys, { weights: sdcMicroWeights, method: 'muArgus' });
    const published = [0.01355297, 0.08579129, 0.01355297, 0.17707583, 0.01877883, 0.01877883, 0.03931625, 0.01355297];
    result.risk.forEach((r, i) => expect(Math.abs(r - published[i]!)).toBeLessThan(5e-9));
  });

  test('weighted with missing values (freqCalc alpha = 1): published approx figures', () => {
    // test_indivRisk.R's table with four values set to NA.
    const keys = [
      [2, 3, 1],
      [3, 3, 3],
      [2, 3, null],
      [2, 3, 2],
      [3, 3, 1],
      [3, 3, 1],
      [1, 4, null],
      [null, 3, 1],
    ];
    const result = individualRisk(keys, { weights: sdcMicroWeights });
    expect([...result.fk]).toEqual([3, 1, 4, 2, 3, 3, 1, 5]);
    const published = [0.01369863, 0.085791288, 0.01055409, 0.032466112, 0.009836066, 0.009836066, 0.039316254, 0.005973716];
    result.risk.forEach((r, i) => expect(Math.abs(r - published[i]!)).toBeLessThan(5e-9));
    // indivRisk(method = "exact") publishes E[1/F | f] itself (the sum below); μ-ARGUS's fk = 3 form
    // equals it, its series for fk ≥ 4 is an approximation of it.
    const exact = [0.013552968, 0.085791288, 0.010504889, 0.032466112, 0.009756889, 0.009756889, 0.039316254, 0.005962551];
    result.fk.forEach((f, i) => expect(Math.abs(expectedInverse(f, f / result.Fk[i]!) - exact[i]!)).toBeLessThan(5e-10));
    const muArgus = individualRisk(keys, { weights: sdcMicroWeights, method: 'muArgus' });
    expect(Math.abs(muArgus.risk[4]! - exact[4]!)).toBeLessThan(5e-10); // fk = 3
    expect(Math.abs(muArgus.risk[2]! / exact[2]! - 1)).toBeLessThan(0.005); // fk = 4
    // Unweighted (the file is the population): 1 / fk, as indivRisk(survey = FALSE) publishes.
    expect([...individualRisk(keys).risk].map((r) => Math.round(r * 1e5) / 1e5)).toEqual([0.33333, 1, 0.25, 0.5, 0.33333, 0.33333, 1, 0.2]);
  });
});

describe('individual risk: the closed forms', () => {
  const fractions = fc.double({ min: 1e-3, max: 0.999, noNaN: true });
  test('fk = 1, 2, 3 (μ-ARGUS) equal E[1/F | f] summed term by term', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3 }), fractions, (f, p) => {
        const exact = expectedInverse(f, p);
        expect(Math.abs(benedettiFranconiRisk(f, f / p, 'muArgus') - exact)).toBeLessThan(1e-9 * Math.max(exact, 1e-3));
      }),
      { seed: 36, numRuns: 300 },
    );
  });

  test("μ-ARGUS's series for fk ≥ 4 is within 1 % of E[1/F | f]; sdcMicro's p/(fk − q) within 5 %", () => {
    fc.assert(
      fc.property(fc.integer({ min: 4, max: 60 }), fractions, (f, p) => {
        const exact = expectedInverse(f, p);
        expect(Math.abs(benedettiFranconiRisk(f, f / p, 'muArgus') / exact - 1)).toBeLessThan(0.01);
        expect(Math.abs(benedettiFranconiRisk(f, f / p, 'sdcMicro') / exact - 1)).toBeLessThan(0.05);
      }),
      { seed: 37, numRuns: 300 },
    );
  });

  test('both methods agree for fk ≤ 2, and a class that is its own population gets 1 / fk', () => {
    expect(benedettiFranconiRisk(2, 100, 'sdcMicro')).toBe(benedettiFranconiRisk(2, 100, 'muArgus'));
    expect(benedettiFranconiRisk(5, 5)).toBe(0.2);
    expect(benedettiFranconiRisk(5, 5, 'muArgus')).toBe(0.2);
  });
});

describe('individual risk: without weights', () => {
  test('a sampling fraction π gives every record weight 1/π, so Fk = fk/π and pk = π', () => {
    const keys = [['a'], ['a'], ['b'], ['c'], ['c'], ['c']];
    const result = individualRisk(keys, { samplingFraction: 0.1 });
    expect([...result.Fk]).toEqual([20, 20, 10, 30, 30, 30]);
    expect(result.risk[2]).toBeCloseTo(benedettiFranconiRisk(1, 10), 15);
    expect(result.risk[0]).toBeCloseTo((0.1 / 0.81) * (0.1 * Math.log(0.1) + 0.9), 15);
    expect(result.risk[3]).toBeCloseTo(0.1 / (3 - 0.9), 15);
    const same = individualRisk(keys, { weights: [10, 10, 10, 10, 10, 10] });
    expect([...same.risk]).toEqual([...result.risk]);
  });

  test('no weights and no fraction: the file is the population, r = 1 / fk (sdcMicro without w)', () => {
    const result = individualRisk([['a'], ['a'], ['b']]);
    expect([...result.risk]).toEqual([0.5, 0.5, 1]);
    expect(result.expectedReidentifications).toBe(2);
    expect(result.globalRisk).toBeCloseTo(2 / 3, 15);
  });

  test('no records: zero risk', () => {
    const result = individualRisk([]);
    expect(result.risk.length).toBe(0);
    expect(result.globalRisk).toBe(0);
  });
});

describe('individual risk: bad input', () => {
  test('weights summing below the class size are refused with the record named', () => {
    expect(() => individualRisk([['a'], ['a']], { weights: [0.5, 1] })).toThrow(IndividualRiskInputError);
    expect(() => individualRisk([['a'], ['a']], { weights: [0.5, 1] })).toThrow(/record 1/);
    expect(() => individualRisk([['a']], { weights: [Number.NaN] })).toThrow(/record 1: weight NaN/);
    expect(() => individualRisk([['a']], { weights: [1, 2] })).toThrow(/2 weights for 1 records/);
    expect(() => individualRisk([['a']], { samplingFraction: 0 })).toThrow(IndividualRiskInputError);
  });

  test('the pattern comparisons with missing values stop at the work limit', () => {
    const keys = Array.from({ length: 50 }, (_, i) => [i, i === 0 ? null : 1]);
    expect(() => individualRisk(keys, { workLimit: 100 })).toThrow(IndividualRiskWorkLimitError);
    expect(individualRisk(keys, { workLimit: 2500 }).fk[0]).toBe(1);
  });
});
