import { describe, expect, test } from 'vitest';
import { riskProfile, sudaMaxSize, type IndividualFigures, type ProfileColumn, type SudaFigures } from '../../../src/common/risk/risk-profile.js';
import { projectedRiskFigures, releasedRiskFigures, riskThresholdChecks } from '../../../src/common/risk/release-risk.js';
import { searchWork } from '../../../src/common/risk/suda2.js';

/** Columns of a table as Custos holds them: dictionary codes, '' = missing at code 0. */
function columns(names: readonly string[], rows: readonly (readonly string[])[]): ProfileColumn[] {
  return names.map((name, a) => {
    const dictionary = [''];
    const codes = new Uint32Array(rows.length);
    rows.forEach((row, r) => {
      let code = dictionary.indexOf(row[a]!);
      if (code === -1) code = dictionary.push(row[a]!) - 1;
      codes[r] = code;
    });
    return { name, codes, dictionary };
  });
}

// Written out by hand, independently of the code: E[1/F | f] with pk = π (Benedetti–Franconi, sdcMicro approx).
function bf(f: number, pi: number): number {
  const q = 1 - pi;
  if (f === 1) return (pi / q) * Math.log(1 / pi);
  if (f === 2) return (pi / (q * q)) * (pi * Math.log(pi) + q);
  return pi / (f - q);
}

const ROWS = [
  ['F', '30', 'A'],
  ['F', '30', 'A'],
  ['F', '30', 'B'],
  ['M', '30', 'A'],
  ['M', '40', 'A'],
  ['M', '40', 'A'],
  ['M', '40', 'A'],
  ['F', '40', 'C'],
];

/** Brute force: records unique on some proper subset of the attributes (special uniques), and on the whole key. */
function specialUniques(rows: readonly (readonly string[])[]): { special: number; unique: number } {
  const m = rows[0]!.length;
  const uniqueOn = (r: number, mask: number) => rows.every((o, i) => i === r || o.some((v, a) => (mask & (1 << a)) !== 0 && v !== rows[r]![a]));
  let special = 0;
  let unique = 0;
  rows.forEach((_, r) => {
    if (!uniqueOn(r, (1 << m) - 1)) return;
    unique++;
    for (let mask = 1; mask < (1 << m) - 1; mask++) if (uniqueOn(r, mask)) return void special++;
  });
  return { special, unique };
}

describe('the risk profile of a table', () => {
  const pi = 0.25;
  const profile = riskProfile(columns(['sex', 'age', 'group'], ROWS), ROWS.length, { fraction: pi, riskiest: 3 });
  const classOf = (r: number) => ROWS.filter((o) => o.join('|') === ROWS[r]!.join('|')).length;

  test('class counts, k-map and population figures from the stated fraction', () => {
    expect(profile.records).toBe(8);
    expect(profile.classes).toBe(new Set(ROWS.map((r) => r.join('|'))).size);
    expect(profile.sampleUniques).toBe(ROWS.filter((_, r) => classOf(r) === 1).length);
    expect(profile.kMap!.highest).toBeCloseTo(pi / 1, 12);
    expect(profile.kMap!.k).toBeCloseTo(1 / pi, 12);
    expect(profile.kMap!.average).toBeCloseTo(ROWS.reduce((s, _, r) => s + pi / classOf(r), 0) / ROWS.length, 12);
    expect(profile.population!.size).toBe(32);
    expect(profile.population!.estimates.map((e) => e.model)).toEqual(['pitman', 'zayatz', 'snb']);
    // Dankar at π ≤ 0.1 takes Pitman, above it the smaller of Zayatz and SNB (Zayatz when SNB has none).
    const zayatz = profile.population!.estimates.find((e) => e.model === 'zayatz')!;
    if (profile.population!.dankar.model === 'zayatz') expect(profile.population!.dankar.populationUniques).toBe(zayatz.populationUniques);
    expect(profile.population!.dankar.model).not.toBe('pitman');
  });

  test('individual risk per record, its histogram and the riskiest records', () => {
    const individual = profile.individual as IndividualFigures;
    expect(individual.basis).toBe('sampling-fraction');
    const expected = ROWS.map((_, r) => bf(classOf(r), pi));
    expect(individual.highest).toBeCloseTo(Math.max(...expected), 12);
    expect(individual.expectedReidentifications).toBeCloseTo(expected.reduce((a, b) => a + b, 0), 12);
    expect(individual.histogram.reduce((s, b) => s + b.records, 0)).toBe(8);
    for (const bin of individual.histogram) expect(bin.records).toBe(expected.filter((x) => x >= bin.from && (x < bin.to || (bin.to === 1 && x <= 1))).length);
    // The three uniques (records 3, 4, 8), in record order, then nothing else at that risk.
    expect(individual.riskiest.map((r) => r.record)).toEqual([3, 4, 8]);
    expect(individual.riskiest[0]).toMatchObject({ values: ['F', '30', 'B'], classSize: 1, weightSum: 1 / pi });
  });

  test('with weights: Fk is the class\'s weight sum', () => {
    const weights = [10, 10, 4, 2, 3, 3, 3, 1.5];
    const p = riskProfile(columns(['sex', 'age', 'group'], ROWS), ROWS.length, { weights: { column: 'w', values: weights } });
    const individual = p.individual as IndividualFigures;
    expect(individual.basis).toBe('weights');
    expect(individual.weightColumn).toBe('w');
    // Record 1's class {1, 2}: fk = 2, Fk = 20; record 3 alone with weight 4.
    const sum = bf(2, 2 / 20) * 2 + bf(1, 1 / 4) + bf(1, 1 / 2) + bf(3, 3 / 9) * 3 + bf(1, 1 / 1.5);
    expect(individual.expectedReidentifications).toBeCloseTo(sum, 12);
    expect(p.population).toBeUndefined();
    expect(p.kMap).toBeUndefined();
  });

  test('with missing values: a missing value matches any value (sdcMicro freqCalc, alpha = 1)', () => {
    // Record 4 ('', 40, A) is compatible with records 5–7 (M, 40, A): fk 4 for it, 4 for them.
    // Record 8 ('F', '', 'C') matches nothing else: fk 1. As the population (no fraction): r = 1/fk.
    const rows = [...ROWS.slice(0, 3), ['', '40', 'A'], ...ROWS.slice(4, 7), ['F', '', 'C']];
    const individual = riskProfile(columns(['sex', 'age', 'group'], rows), rows.length).individual as IndividualFigures;
    const expected = [1 / 2, 1 / 2, 1, 1 / 4, 1 / 4, 1 / 4, 1 / 4, 1];
    expect(individual.expectedReidentifications).toBeCloseTo(expected.reduce((a, b) => a + b, 0), 12);
    expect(individual.riskiest.map((r) => [r.record, r.classSize])).toEqual([[3, 1], [8, 1], [1, 2], [2, 2], [4, 4], [5, 4], [6, 4], [7, 4]]);
  });

  test('a weight below 1 in a unique class is named, and the individual risk skipped with the reason', () => {
    const p = riskProfile(columns(['sex', 'age', 'group'], ROWS), ROWS.length, { weights: { column: 'w', values: [1, 1, 0.5, 1, 1, 1, 1, 1] } });
    expect(p.individual).toEqual({ skipped: expect.stringMatching(/weights of w: record 3/) });
  });

  test('SUDA2: special uniques as brute force counts them, DIS and score distribution', () => {
    const suda = profile.suda as SudaFigures;
    const { special, unique } = specialUniques(ROWS);
    expect(suda.maxSize).toBe(3);
    expect(suda.specialUniques).toBe(special);
    expect(suda.recordsWithMsu).toBe(unique);
    expect(suda.scoreHistogram.reduce((s, b) => s + b.records, 0)).toBe(8);
    expect(suda.scoreHistogram[0]).toEqual({ from: 0, to: 0, records: 8 - unique });
    expect(suda.disAbove[0]).toEqual({ threshold: 0, records: unique });
    expect(suda.disHighest).toBeGreaterThan(0);
    expect(suda.disHighest).toBeLessThanOrEqual(1);
  });

  test('SUDA2 is bounded: the MSU size shrinks to fit the work limit, and is skipped with the reason when size 1 does not fit', () => {
    expect(sudaMaxSize(1000, 12, searchWork(1000, 12, 3))).toBe(3);
    expect(sudaMaxSize(1000, 12, searchWork(1000, 12, 3) - 1)).toBe(2);
    const bounded = riskProfile(columns(['sex', 'age', 'group'], ROWS), ROWS.length, { sudaWorkLimit: searchWork(8, 3, 1) });
    expect((bounded.suda as SudaFigures).maxSize).toBe(1);
    const skipped = riskProfile(columns(['sex', 'age', 'group'], ROWS), ROWS.length, { sudaWorkLimit: 10 });
    expect(skipped.suda).toEqual({ skipped: expect.stringMatching(/MSUs of one attribute need .* more than the limit/) });
  });
});

describe('the released-file figures the review checks', () => {
  test('from records per class size, against a hand calculation; the projection keeps the highest', () => {
    const pi = 0.1;
    const bySize = new Map([[1, 2], [3, 6]]);
    const f = releasedRiskFigures(bySize, pi);
    expect(f.individualRiskHighest).toBeCloseTo(bf(1, pi), 14);
    expect(f.individualRiskAverage).toBeCloseTo((2 * bf(1, pi) + 6 * bf(3, pi)) / 8, 14);
    expect(projectedRiskFigures(1, pi)).toEqual({ individualRiskHighest: f.individualRiskHighest });
  });

  test('a threshold fails when the worst file exceeds it', () => {
    const figures = releasedRiskFigures(new Map([[2, 4]]), 0.5);
    expect(riskThresholdChecks([{ file: 'release.csv', figures }], { maxIndividualRisk: figures.individualRiskHighest - 1e-9 }).map((c) => [c.check, c.passed])).toEqual([['individual-risk', false]]);
    expect(riskThresholdChecks([{ file: 'release.csv', figures }], { maxIndividualRisk: figures.individualRiskHighest }).map((c) => [c.check, c.passed])).toEqual([['individual-risk', true]]);
    expect(riskThresholdChecks([{ file: 'release.csv', figures }], {})).toEqual([]);
  });
});

describe('the profile started from the review\'s classes', () => {
  test('is the profile it computes alone: same figures to the last bit, with missing values, weights and a population (property)', async () => {
    const fc = (await import('fast-check')).default;
    const { tupleIds, keyColumn } = await import('../../../src/common/table/tuple-ids.js');
    const tables = fc
      .record({ m: fc.integer({ min: 1, max: 4 }), n: fc.integer({ min: 1, max: 120 }), domain: fc.integer({ min: 1, max: 6 }) })
      .chain(({ m, n, domain }) =>
        fc.record({
          rows: fc.array(fc.array(fc.oneof(fc.integer({ min: 0, max: domain - 1 }).map(String), fc.constant('')), { minLength: m, maxLength: m }), { minLength: n, maxLength: n }),
          weights: fc.option(fc.array(fc.double({ min: 0.5, max: 40, noNaN: true }), { minLength: n, maxLength: n }), { nil: undefined }),
          fraction: fc.option(fc.constantFrom(0.01, 0.2, 0.7), { nil: undefined }),
        }),
      );
    fc.assert(
      fc.property(tables, ({ rows, weights, fraction }) => {
        const names = rows[0]!.map((_, a) => `q${a}`);
        const cols = columns(names, rows);
        const options = { ...(fraction !== undefined ? { fraction } : {}), ...(weights ? { weights: { column: 'w', values: Float64Array.from(weights) } } : {}) };
        // As the review groups a released table: its dictionary codes, '' a value of its own, numbered by first row.
        const grouped = tupleIds(cols.map((c) => keyColumn({ codes: c.codes as Uint32Array, dictionary: c.dictionary })), null, rows.length);
        const known = { ids: new Int32Array(grouped.ids.buffer, grouped.ids.byteOffset, grouped.ids.length), count: grouped.count };
        expect(riskProfile(cols, rows.length, options, known)).toEqual(riskProfile(cols, rows.length, options));
      }),
      { seed: 11, numRuns: 300 },
    );
  });

  test('class ids that are not the records\' count are refused', () => {
    const cols = columns(['a'], [['x'], ['y']]);
    expect(() => riskProfile(cols, 2, {}, { ids: new Int32Array(3), count: 1 })).toThrow(/3 class ids for 2 records/);
  });
});
