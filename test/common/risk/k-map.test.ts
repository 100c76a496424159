import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { kMapEstimated, kMapWithPopulation, type MappedClass } from '../../../src/common/risk/k-map.js';

const mappedClasses = fc.array(
  fc.tuple(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 0, max: 200 })).map(([sampleSize, extra]): MappedClass => ({ sampleSize, populationSize: sampleSize + extra })),
  { minLength: 1, maxLength: 30 },
);

describe('k-map with a population table', () => {
  test('equals a record-by-record computation', () => {
    fc.assert(
      fc.property(mappedClasses, (classes) => {
        // One entry per sample record, its risk 1 / F of its class.
        const risks = classes.flatMap(({ sampleSize, populationSize }) => Array.from({ length: sampleSize }, () => 1 / populationSize));
        const highest = Math.max(...risks);
        const result = kMapWithPopulation(classes);
        expect(result.records).toBe(risks.length);
        expect(result.k).toBe(Math.min(...classes.map((c) => c.populationSize)));
        expect(result.journalistHighest).toBe(highest);
        expect(result.journalistAverage).toBeCloseTo(risks.reduce((a, b) => a + b, 0) / risks.length, 12);
        expect(result.recordsAtHighestRisk).toBeCloseTo(risks.filter((r) => r === highest).length / risks.length, 12);
      }),
    );
  });

  test('a population equal to the sample gives the prosecutor risk', () => {
    const result = kMapWithPopulation([
      { sampleSize: 1, populationSize: 1 },
      { sampleSize: 3, populationSize: 3 },
    ]);
    expect(result).toEqual({ k: 1, journalistHighest: 1, journalistAverage: 2 / 4, recordsAtHighestRisk: 1 / 4, records: 4 });
  });

  test('a population count below the sample count is refused, naming the class', () => {
    expect(() => kMapWithPopulation([{ sampleSize: 2, populationSize: 5 }, { sampleSize: 3, populationSize: 2 }])).toThrow(/class 1: population count 2 is smaller than the sample's 3/);
  });

  test('no records', () => {
    expect(kMapWithPopulation([]).journalistHighest).toBe(0);
  });
});

describe('k-map estimated from the sampling fraction', () => {
  test('F̂ = f / π: risks are π / f', () => {
    const result = kMapEstimated([1, 2, 2, 5], 0.1);
    expect(result.k).toBeCloseTo(10, 12);
    expect(result.journalistHighest).toBeCloseTo(0.1, 12);
    // Records: 1 at 0.1, 4 at 0.05, 5 at 0.02 → (0.1 + 0.2 + 0.1) / 10.
    expect(result.journalistAverage).toBeCloseTo(0.04, 12);
  });

  test('fraction 1 gives the prosecutor risk; risk grows with the fraction', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 30 }), { minLength: 1, maxLength: 30 }), fc.double({ min: 0.01, max: 0.99, noNaN: true }), (sizes, fraction) => {
        const full = kMapEstimated(sizes, 1);
        expect(full.journalistHighest).toBe(1 / Math.min(...sizes));
        expect(full.journalistAverage).toBeCloseTo(sizes.length / sizes.reduce((a, b) => a + b, 0), 12);
        expect(kMapEstimated(sizes, fraction).journalistAverage).toBeLessThanOrEqual(full.journalistAverage * (1 + 1e-12));
      }),
    );
  });

  test('a fraction outside (0, 1] is refused', () => {
    expect(() => kMapEstimated([1], 0)).toThrow(/fraction/);
  });
});
