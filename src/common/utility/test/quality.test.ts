import { describe, expect, it } from 'vitest';
import { qualityOf, type QualityColumn } from '../quality.js';

/** Ages 1–4 under the hierarchy 1, 2 → "1-2" (code 0); 3, 4 → "3-4" (code 1); then "*": released at level 1 of 3. */
function age(values: readonly number[]): QualityColumn {
  return { name: 'age', level: 1, depth: 3, original: Uint32Array.from(values), generalized: Uint32Array.from(values, (v) => (v <= 2 ? 0 : 1)), coverage: [2, 2], domainSize: 4 };
}

describe('quality measures, computed by hand on tiny tables', () => {
  it('four ages, one each, at level 1, nothing suppressed', () => {
    const q = qualityOf({ rowCount: 4, columns: [age([1, 2, 3, 4])], released: Uint8Array.of(1, 1, 1, 1), classOf: Uint32Array.of(0, 0, 1, 1), tupleOf: Uint32Array.of(0, 1, 2, 3) });
    expect(q.height).toBe(1);
    expect(q.relativeHeight).toBe(0.5);
    // 4 released records at level 1 of a 2-step hierarchy: (4·1/2 + 0)/4.
    expect(q.attributes).toEqual([{ name: 'age', precision: 0.5, nonUniformEntropy: 4 }]);
    // Two classes of 2: mean 2, Σ|C|² = 8; each record stands for 2 ages.
    expect(q.averageClassSize).toBe(2);
    expect(q.discernibility).toBe(8);
    expect(q.ambiguity).toBe(2);
    // Each class spreads its 2/4 over its 2 ages: 1/4 each, the input's own distribution.
    expect(q.klDivergence).toBe(0);
  });

  it('ages 1, 1, 2, 3 with the class "3-4" suppressed', () => {
    const q = qualityOf({ rowCount: 4, columns: [age([1, 1, 2, 3])], released: Uint8Array.of(1, 1, 1, 0), classOf: Uint32Array.of(0, 0, 0, 1), tupleOf: Uint32Array.of(0, 0, 1, 2) });
    // (3·1/2 + 1)/4.
    expect(q.attributes[0]!.precision).toBe(0.625);
    // −log₂(2/3) twice, −log₂(1/3), and −log₂(1/4) for the suppressed record: 3·log₂ 3.
    expect(q.attributes[0]!.nonUniformEntropy).toBeCloseTo(3 * Math.log2(3), 12);
    expect(q.averageClassSize).toBe(3);
    // 3² + 1 suppressed record · 4.
    expect(q.discernibility).toBe(13);
    // (2 + 2 + 2 + 4)/4.
    expect(q.ambiguity).toBe(2.5);
    // p = (1/2, 1/4, 1/4) on ages 1, 2, 3; p̂ = 3/8 + 1/16 = 7/16 on ages 1 and 2, 1/16 on age 3: 2.5 − 0.75·log₂ 7.
    expect(q.klDivergence).toBeCloseTo(2.5 - 0.75 * Math.log2(7), 12);
  });

  it('two columns: ambiguity multiplies the coverages, KL counts the tuples', () => {
    const sex: QualityColumn = { name: 'sex', level: 0, depth: 1, original: Uint32Array.of(0, 1, 0, 1), generalized: Uint32Array.of(0, 1, 0, 1), coverage: [1, 1], domainSize: 2 };
    const q = qualityOf({ rowCount: 4, columns: [age([1, 2, 3, 4]), sex], released: Uint8Array.of(1, 1, 1, 1), classOf: Uint32Array.of(0, 1, 2, 3), tupleOf: Uint32Array.of(0, 1, 2, 3) });
    expect(q.height).toBe(1);
    expect(q.relativeHeight).toBe(0.5);
    expect(q.attributes).toEqual([
      { name: 'age', precision: 0.5, nonUniformEntropy: 4 },
      { name: 'sex', precision: 0, nonUniformEntropy: 0 },
    ]);
    // Four classes of one record.
    expect(q.averageClassSize).toBe(1);
    expect(q.discernibility).toBe(4);
    expect(q.ambiguity).toBe(2);
    // p(t) = 1/4, p̂(t) = 1/(4·2): log₂ 2 for every tuple.
    expect(q.klDivergence).toBe(1);
  });
});
