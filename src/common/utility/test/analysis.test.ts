import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { coveringColumn, textColumn, withheldColumn, type ReleasedRecords } from '../../compare/released-records.js';
import { randomPermutation } from '../../random/draws.js';
import { SeededTestRandomSource } from '../../random/source.js';
import { tableFromRows, type Table } from '../../table/table.js';
import { analysisUtility, FOLD_SEED, FOLDS } from '../analysis.js';
import { addRecord, emptyCounts, predict, trainNaiveBayes } from '../naive-bayes.js';
import { valueBins } from '../value-bins.js';

/** The input as its own release: every column as collected. */
function asCollected(table: Table): ReleasedRecords {
  return { records: table.rowCount, scale: 1, columns: table.columns.map((c) => textColumn(c.dictionary, c.dictionary, c.codes)) };
}

const rows = fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c'), fc.constantFrom('u', 'v', ''), fc.constantFrom('yes', 'no', '')), { minLength: 1, maxLength: 60 });

describe('value bins', () => {
  it('100 distinct integers: 10 bins of 10, labelled by their range', () => {
    const table = tableFromRows(['n'], Array.from({ length: 100 }, (_, i) => [String(100 - i)]));
    const binning = valueBins(table.columns[0]!);
    if (!('bins' in binning)) throw new Error(binning.leftOut);
    expect(binning.bins.labels).toEqual(Array.from({ length: 10 }, (_, b) => `${10 * b + 1} – ${10 * b + 10}`));
    // "100" is code 1 (first seen), "1" is code 100.
    expect(binning.bins.binOf[1]).toBe(9);
    expect(binning.bins.binOf[100]).toBe(0);
  });

  it('text of many values is left out; few integers are their own categories in value order', () => {
    const text = tableFromRows(['t'], Array.from({ length: 70 }, (_, i) => [`v${i}`]));
    expect('leftOut' in valueBins(text.columns[0]!)).toBe(true);
    const few = tableFromRows(['n'], [['3'], ['1'], ['2'], ['1']]);
    const binning = valueBins(few.columns[0]!);
    expect('bins' in binning && binning.bins.labels).toEqual(['1', '2', '3']);
  });
});

describe('analysis-based utility', () => {
  it('a release equal to the input: equal accuracies and every distance 0 (property)', () => {
    fc.assert(
      fc.property(rows, (data) => {
        const table = tableFromRows(['a', 'b', 'y'], data);
        const report = analysisUtility({ truth: table, columns: table.columns, released: asCollected(table), reading: 'as collected', target: 'y', pairs: [['a', 'y'], ['b', 'a']] });
        if (!('tables' in report)) throw new Error('not measured');
        const c = report.classifier!;
        if ('skipped' in c) {
          expect(data.every(([, , y]) => y === '')).toBe(true);
          return;
        }
        expect(c.releaseAccuracy).toBe(c.inputAccuracy);
        for (const t of report.tables) {
          // A column every record misses has no category to tabulate.
          if ('skipped' in t) {
            expect(t.skipped).toMatch(/: no value$/);
            continue;
          }
          expect(t.totalVariation).toBe(0);
          expect(t.hellinger).toBe(0);
          expect(t.marginals).toEqual([0, 0]);
          expect(t.cells!.release).toEqual(t.cells!.input);
        }
      }),
    );
  });

  it('the input\'s table counts each record in the cells of its two values\' bins, whatever their number (property)', () => {
    // Integers of many values are binned (several codes to a bin); a missing value has no bin. A few
    // values over many rows are counted by pair of codes, many over few row by row: both ways are met.
    const tables = fc.integer({ min: 1, max: 150 }).chain((top) =>
      fc.array(fc.tuple(fc.oneof(fc.integer({ min: 0, max: top }).map(String), fc.constant('')), fc.constantFrom('x', 'y', 'z', '')), { minLength: 1, maxLength: 400 }),
    );
    fc.assert(
      fc.property(tables, (data) => {
        const table = tableFromRows(['n', 's'], data);
        const report = analysisUtility({ truth: table, columns: table.columns, released: asCollected(table), reading: 'as collected', pairs: [['n', 's']] });
        if (!('tables' in report)) throw new Error('not measured');
        const t = report.tables[0]!;
        if ('skipped' in t) return;
        const [n, s] = table.columns.map((c) => valueBins(c)) as [ReturnType<typeof valueBins>, ReturnType<typeof valueBins>];
        if (!('bins' in n) || !('bins' in s)) throw new Error('left out');
        const expected = new Array<number>(n.bins.labels.length * s.bins.labels.length).fill(0);
        for (let r = 0; r < table.rowCount; r++) {
          const i = n.bins.binOf[table.columns[0]!.codes[r]!]!;
          const j = s.bins.binOf[table.columns[1]!.codes[r]!]!;
          if (i >= 0 && j >= 0) expected[i * s.bins.labels.length + j]!++;
        }
        if (t.cells) expect(t.cells.input).toEqual(expected);
        else expect(n.bins.labels.length * s.bins.labels.length).toBeGreaterThan(144);
      }),
      { numRuns: 200, seed: 29 },
    );
  });

  it('a column generalized to "*" spreads each record over its values: the table by hand', () => {
    // a: x x y y; b: 1 1 1 2. Released: a as "*" (covers x and y), b as collected.
    const table = tableFromRows(['a', 'b'], [['x', '1'], ['x', '1'], ['y', '1'], ['y', '2']]);
    const [a, b] = table.columns;
    const star = coveringColumn(a!.codes, new Uint32Array(4), a!.dictionary.length, 1, new Uint32Array(4));
    const released: ReleasedRecords = { records: 4, scale: 1, columns: [star, textColumn(b!.dictionary, b!.dictionary, b!.codes)] };
    const report = analysisUtility({ truth: table, columns: table.columns, released, reading: '', pairs: [['a', 'b']] });
    if (!('tables' in report)) throw new Error('not measured');
    const t = report.tables[0]!;
    if ('skipped' in t) throw new Error(t.skipped);
    expect(t.rows).toEqual(['x', 'y']);
    expect(t.cols).toEqual(['1', '2']);
    expect(t.cells!.input).toEqual([2, 0, 1, 1]);
    // Each record counts ½ toward x and ½ toward y: b = 1 three times, 2 once.
    expect(t.cells!.release).toEqual([1.5, 0.5, 1.5, 0.5]);
    // ½(|½ − ⅜| + |0 − ⅛| + |¼ − ⅜| + |¼ − ⅛|) = ¼.
    expect(t.totalVariation).toBeCloseTo(0.25, 15);
    expect(t.marginals[0]).toBeCloseTo(0, 15);
    expect(t.marginals[1]).toBeCloseTo(0, 15);
  });

  it('a withheld feature leaves the release model with the prior: the majority class', () => {
    // y follows a exactly; a release without a predicts the majority "no" (3 of 5).
    const table = tableFromRows(['a', 'y'], [['p', 'yes'], ['p', 'yes'], ['q', 'no'], ['q', 'no'], ['q', 'no']]);
    const [, y] = table.columns;
    const released: ReleasedRecords = { records: 5, scale: 1, columns: [withheldColumn(5, 2), textColumn(y!.dictionary, y!.dictionary, y!.codes)] };
    const report = analysisUtility({ truth: table, columns: table.columns, released, reading: '', target: 'y', pairs: [] });
    if (!('tables' in report) || !report.classifier || 'skipped' in report.classifier) throw new Error('not measured');
    expect(report.classifier.inputAccuracy).toBe(1);
    expect(report.classifier.releaseAccuracy).toBe(3 / 5);
    expect(report.classifier.majority).toBe(3 / 5);
    expect(report.classifier.features).toEqual(['a']);
  });

  it('the cross-validated accuracy equals models refit from scratch on each fold\'s complement', () => {
    fc.assert(
      fc.property(rows, (data) => {
        const table = tableFromRows(['a', 'b', 'y'], data);
        const report = analysisUtility({ truth: table, columns: table.columns, released: asCollected(table), reading: '', target: 'y', pairs: [] });
        if (!('tables' in report) || !report.classifier || 'skipped' in report.classifier) return;
        const [a, b, y] = table.columns;
        const order = randomPermutation(new SeededTestRandomSource(FOLD_SEED), table.rowCount);
        const fold = new Uint8Array(table.rowCount);
        order.forEach((r, i) => (fold[r] = i % FOLDS));
        // Categories are the dictionary's codes − 1 (text: first seen order).
        let right = 0;
        let scored = 0;
        for (let r = 0; r < table.rowCount; r++) {
          if (y!.codes[r] === 0) continue;
          const counts = emptyCounts(y!.dictionary.length - 1, [a!.dictionary.length - 1, b!.dictionary.length - 1]);
          for (let s = 0; s < table.rowCount; s++) if (fold[s] !== fold[r] && y!.codes[s] !== 0) addRecord(counts, [a!.codes[s]! - 1, b!.codes[s]! - 1], y!.codes[s]! - 1);
          scored++;
          if (predict(trainNaiveBayes(counts), [a!.codes[r]! - 1, b!.codes[r]! - 1]) === y!.codes[r]! - 1) right++;
        }
        expect(report.classifier.records).toBe(scored);
        expect(report.classifier.inputCrossValidated).toBe(right / scored);
      }),
      { numRuns: 40 },
    );
  });
});
