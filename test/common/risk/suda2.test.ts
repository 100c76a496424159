import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { KeyValue } from '../../../src/common/risk/key-codes.js';
import { searchWork, suda2, SudaWorkLimitError } from '../../../src/common/risk/suda2.js';

/** Record r is unique on the attributes in `mask` (bit a = attribute a): no other record has its values there. */
function uniqueOn(rows: readonly (readonly KeyValue[])[], r: number, mask: number): boolean {
  return rows.every((other, o) => o === r || other.some((v, a) => (mask & (1 << a)) !== 0 && v !== rows[r]![a]));
}

/**
 * The definition, by brute force: every attribute subset S on which the record has values and is
 * unique, and no non-empty proper subset of S is.
 */
function bruteForceMsus(rows: readonly (readonly KeyValue[])[], maxSize: number): number[][][] {
  const m = rows[0]?.length ?? 0;
  return rows.map((row, r) => {
    const msus: number[][] = [];
    for (let mask = 1; mask < 1 << m; mask++) {
      const attributes = [...Array(m).keys()].filter((a) => (mask & (1 << a)) !== 0);
      if (attributes.length > maxSize || attributes.some((a) => row[a] === null)) continue;
      if (!uniqueOn(rows, r, mask)) continue;
      let minimal = true;
      for (let sub = (mask - 1) & mask; sub > 0 && minimal; sub = (sub - 1) & mask) if (uniqueOn(rows, r, sub)) minimal = false;
      if (minimal) msus.push(attributes);
    }
    return msus;
  });
}

const sortMsus = (msus: readonly (readonly number[])[]): string[] => msus.map((s) => s.join(',')).sort();
const factorial = (x: number): number => (x <= 1 ? 1 : x * factorial(x - 1));

const tables = fc
  .record({ m: fc.integer({ min: 1, max: 5 }), n: fc.integer({ min: 1, max: 12 }), domain: fc.integer({ min: 1, max: 3 }) })
  .chain(({ m, n, domain }) =>
    fc.record({
      rows: fc.array(fc.array(fc.oneof({ weight: 6, arbitrary: fc.integer({ min: 0, max: domain - 1 }) }, { weight: 1, arbitrary: fc.constant(null) }), { minLength: m, maxLength: m }), { minLength: n, maxLength: n }),
      maxSize: fc.integer({ min: 1, max: m }),
    }),
  );

describe('SUDA2 against the brute-force definition of MSUs', () => {
  test('the same MSUs, counts by size, SUDA scores and attribute contributions on small random tables', () => {
    fc.assert(
      fc.property(tables, ({ rows, maxSize }) => {
        const m = rows[0]!.length;
        const expected = bruteForceMsus(rows, maxSize);
        const result = suda2(rows, { maxSize, listMsus: true });
        expect(result.msus!.map(sortMsus)).toEqual(expected.map(sortMsus));
        rows.forEach((_, r) => {
          for (let k = 1; k <= maxSize; k++) expect(result.msuCountsBySize[k - 1]![r]).toBe(expected[r]!.filter((s) => s.length === k).length);
          expect(result.score[r]).toBe(expected[r]!.reduce((sum, s) => sum + factorial(Math.max(m, 3) - s.length), 0));
        });
        const total = result.score.reduce((x, y) => x + y, 0);
        const contributions = [...Array(m).keys()].map((a) => {
          const c = expected.flat().filter((s) => s.includes(a)).reduce((sum, s) => sum + factorial(Math.max(m, 3) - s.length), 0);
          return total > 0 ? (100 * c) / total : 0;
        });
        result.attributeContributions.forEach((c, a) => expect(c).toBeCloseTo(contributions[a]!, 10));
      }),
      { seed: 20261128, numRuns: 400 },
    );
  });
});

describe('SUDA2 on wider domains (the grouping by counting sort, not the direct table)', () => {
  test('the same MSUs as the brute force when classes × values exceed the direct table', () => {
    const wide = fc
      .record({ m: fc.integer({ min: 2, max: 3 }), n: fc.integer({ min: 150, max: 250 }) })
      .chain(({ m, n }) => fc.array(fc.array(fc.oneof({ weight: 20, arbitrary: fc.integer({ min: 0, max: 400 }) }, { weight: 1, arbitrary: fc.constant(null) }), { minLength: m, maxLength: m }), { minLength: n, maxLength: n }));
    fc.assert(
      fc.property(wide, (rows) => {
        const expected = bruteForceMsus(rows, rows[0]!.length);
        expect(suda2(rows, { listMsus: true }).msus!.map(sortMsus)).toEqual(expected.map(sortMsus));
      }),
      { seed: 28, numRuns: 15 },
    );
  });
});

describe("SUDA2: sdcMicro's published scores (tests/testthat/test_suda2.R)", () => {
  test('the SDC guideline table: scores 0, 0, 6, 0, 12, 0, 6, 10, 0, 0', () => {
    const rows = [
      ['Urban', 'Female', 'Secondary incomplete', 'Employed'],
      ['Urban', 'Female', 'Secondary incomplete', 'Employed'],
      ['Urban', 'Female', 'Primary incomplete', 'Non-LF'],
      ['Urban', 'Male', 'Secondary complete', 'Employed'],
      ['Rural', 'Female', 'Secondary complete', 'Unemployed'],
      ['Urban', 'Male', 'Secondary complete', 'Employed'],
      ['Urban', 'Female', 'Primary complete', 'Non-LF'],
      ['Urban', 'Male', 'Post-secondary', 'Unemployed'],
      ['Urban', 'Female', 'Secondary incomplete', 'Non-LF'],
      ['Urban', 'Female', 'Secondary incomplete', 'Non-LF'],
    ];
    expect([...suda2(rows).score]).toEqual([0, 0, 6, 0, 12, 0, 6, 10, 0, 0]);
  });

  test('attribute contributions 50, 37.5, 37.5 on the three-record table, in every column order', () => {
    const a = [2, 1, 1];
    const b = [0, 3, 0];
    const c = [0, 6, 0];
    const columns = { a, b, c };
    for (const order of [['a', 'b', 'c'], ['a', 'c', 'b'], ['c', 'a', 'b'], ['c', 'b', 'a']] as const) {
      const rows = [0, 1, 2].map((r) => order.map((name) => columns[name][r]!));
      const expected = order.map((name) => (name === 'a' ? 50 : 37.5));
      expect(suda2(rows).attributeContributions).toEqual(expected);
    }
  });

  test("the book's table (Templ 2017): records 5 to 8 score 4, 2, 6, 8", () => {
    const age = [...Array<string>(7).fill('20s'), '60s'];
    const gender = [...Array<string>(4).fill('male'), ...Array<string>(3).fill('female'), 'male'];
    const income = ['50k+', '50k+', ...Array<string>(6).fill('50k-')];
    const education = [...Array<string>(4).fill('highschool'), 'university', 'highschool', 'middleschool', 'university'];
    const rows = age.map((a, i) => [a, gender[i]!, income[i]!, education[i]!]);
    expect([...suda2(rows).score.slice(4)]).toEqual([4, 2, 6, 8]);
  });
});

describe('DIS-SUDA', () => {
  // Two uniques on all attributes (records 3, 4), one pair (records 1, 2), one triple.
  const rows = [
    ['a', 'x', 'p'],
    ['a', 'x', 'p'],
    ['b', 'x', 'q'],
    ['c', 'y', 'q'],
    ['a', 'y', 'p'],
    ['a', 'y', 'p'],
    ['a', 'y', 'p'],
  ];

  test("sdcMicro's formula as written: Dis = Uπ / (Uπ + P(1 − π)), dis = 1 / (1 + (U/Dis − U) / (score^Q Σ score^−Q))", () => {
    for (const fraction of [0.01, 0.1, 0.5]) {
      const result = suda2(rows, { disFraction: fraction });
      expect([result.uniques, result.pairedRecords]).toEqual([2, 2]);
      const u = 2;
      const dis = (u * fraction) / (u * fraction + 2 * (1 - fraction));
      const q = 1 + (8 - 3) / 20;
      const scored = [...result.score].filter((s) => s > 0);
      expect(scored.length).toBe(2);
      const adjustment = scored.reduce((sum, s) => sum + Math.pow(s, -q), 0);
      result.score.forEach((s, r) => {
        const expected = s > 0 ? 1 / (1 + (u / dis - u) / (Math.pow(s, q) * adjustment)) : 0;
        expect(result.disScore[r]).toBeCloseTo(expected, 14);
      });
    }
  });

  test('without pairs every scored record has DIS 1; a higher score never has a lower DIS', () => {
    const noPairs = suda2(rows.slice(2));
    expect(noPairs.pairedRecords).toBe(0);
    noPairs.score.forEach((s, r) => expect(noPairs.disScore[r]).toBe(s > 0 ? 1 : 0));
    const result = suda2(rows);
    expect(result.score[2]).toBeGreaterThan(0);
    const order = [...result.score.keys()].sort((x, y) => result.score[x]! - result.score[y]!);
    for (let i = 1; i < order.length; i++) expect(result.disScore[order[i]!]!).toBeGreaterThanOrEqual(result.disScore[order[i - 1]!]!);
  });
});

describe('SUDA2 limits', () => {
  test('the work is computed before the search and refused above the limit, with a named error', () => {
    const rows = Array.from({ length: 100 }, (_, i) => Array.from({ length: 8 }, (__, a) => (i * (a + 1)) % 7));
    const work = searchWork(100, 8, 8);
    // 100 records × (8 for the full grouping + Σ k·C(8, k) = 8·2⁷).
    expect(work).toBe(100 * (8 + 8 * 128));
    expect(() => suda2(rows, { workLimit: work - 1 })).toThrow(SudaWorkLimitError);
    expect(suda2(rows, { workLimit: work }).records).toBe(100);
    expect(searchWork(100, 8, 2)).toBe(100 * (8 + 8 + 2 * 28));
  });

  test('maximum size out of range is refused; an empty table has no MSUs', () => {
    expect(() => suda2([['a', 'b']], { maxSize: 3 })).toThrow(RangeError);
    expect(() => suda2([['a', 'b']], { disFraction: 0 })).toThrow(RangeError);
    expect(suda2([]).score.length).toBe(0);
  });
});
