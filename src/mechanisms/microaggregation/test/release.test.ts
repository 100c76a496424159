import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JobWith } from '../../../common/job/job-parts.js';
import { SeededTestRandomSource } from '../../../common/random/source.js';
import { tableFromRows, type Table } from '../../../common/table/table.js';
import type { ImportedTable } from '../../../io/input/import-types.js';
import type { ReleaseTable } from '../../../io/output/release-table.js';
import { JobError } from '../../../common/job/job-error.js';
import { parseJob } from '../../../jobs/load-job.js';
import type { MicroaggregationSpec } from '../definition.js';
import { runMicroaggregation } from '../node/run.js';

function imported(table: Table): ImportedTable {
  return { table, format: 'csv', sha256: '0'.repeat(64), bytes: 0, rejectedRows: [], rejectedRowCount: 0 };
}

function job(method: Record<string, unknown>, attributes: Record<string, string> = {}): JobWith<MicroaggregationSpec> {
  const { job } = parseJob({ version: 1, input: { path: 'in.csv' }, attributes, method, output: { dir: 'out' } }, '.');
  if (job.method.type !== 'microaggregation') throw new Error('not a microaggregation job');
  return job as JobWith<MicroaggregationSpec>;
}

function run(table: Table, method: Record<string, unknown>, seed = 1, attributes: Record<string, string> = {}) {
  const j = job(method, attributes);
  return runMicroaggregation(j, imported(table), j.method, { random: new SeededTestRandomSource(seed), mode: 'run', baseDir: '.', progress: () => {} });
}

/** The released cells of some columns, row by row, as the writers would read them. */
function cells(view: ReleaseTable, names: readonly string[]): string[][] {
  const columns = names.map((name) => view.columns.find((c) => c.name === name)!);
  return Array.from({ length: view.rowCount }, (_, i) => columns.map((c) => c.dictionary[c.codes[c.via ? c.via[i]! : i]!]!));
}

const rowsArb = fc.array(fc.tuple(fc.integer({ min: 18, max: 90 }), fc.integer({ min: 0, max: 99 }), fc.constantFrom('a', 'b', 'c')), { minLength: 2, maxLength: 80 });

describe('microaggregation release', () => {
  it('every released record shares its aggregated values with at least k − 1 others; totals and other columns are kept (property)', () => {
    fc.assert(
      fc.property(rowsArb, fc.integer({ min: 2, max: 7 }), fc.constantFrom('mean', 'median'), fc.integer(), (rows, k, aggregation, seed) => {
        fc.pre(rows.length >= k);
        const table = tableFromRows(['age', 'hours', 'group'], rows.map(([a, h, g]) => [String(a), String(h), g]));
        const outcome = run(table, { type: 'microaggregation', columns: ['age', 'hours'], k, aggregation, decimals: 10 }, seed);
        expect(outcome.guarantee.holds).toBe(true);
        const view = outcome.releases[0]!.table;
        expect(view.rowCount).toBe(rows.length);
        const counts = new Map<string, number>();
        for (const row of cells(view, ['age', 'hours'])) counts.set(row.join('|'), (counts.get(row.join('|')) ?? 0) + 1);
        expect(Math.min(...counts.values())).toBeGreaterThanOrEqual(k);
        // The untouched column is the input's, up to the record order.
        expect(cells(view, ['group']).map((r) => r[0]).sort()).toEqual(rows.map((r) => r[2]).sort());
        // Means keep each column's total (up to the rounding at 10 places).
        if (aggregation === 'mean') {
          const released = cells(view, ['age', 'hours']);
          [0, 1].forEach((j) => {
            const total = rows.reduce((s, r) => s + (j === 0 ? r[0] : r[1]), 0);
            expect(Math.abs(released.reduce((s, r) => s + Number(r[j]), 0) - total)).toBeLessThan(1e-6);
          });
        }
      }),
      { numRuns: 120, seed: 42 },
    );
  });

  it('releases the hand-worked group means, rounded as stated, and reports the loss only internally', () => {
    const values = [1, 2, 3, 10, 11, 12, 20, 21, 22, 23];
    const table = tableFromRows(['x'], values.map((v) => [String(v)]));
    const outcome = run(table, { type: 'microaggregation', columns: ['x'], k: 3, decimals: 1 });
    const released = cells(outcome.releases[0]!.table, ['x']).map((r) => r[0]).sort();
    // Groups {1,2,3}, {21,22,23}, {10,11,12,20}: means 2, 22, 13.25 → "13.3" (half away from zero).
    expect(released).toEqual(['13.3', '13.3', '13.3', '13.3', '2', '2', '2', '22', '22', '22']);
    expect(outcome.method.internal?.['groups']).toBe(3);
    expect(outcome.method.internal?.['sseOverSst']).toBeGreaterThan(0);
    expect(outcome.externalSummary.join(' ')).not.toMatch(/SSE\/SST =/);
  });

  it('says when other quasi-identifiers are released unchanged', () => {
    const table = tableFromRows(['x', 'sex'], Array.from({ length: 12 }, (_, i) => [String(i), i % 2 ? 'F' : 'M']));
    const partial = run(table, { type: 'microaggregation', columns: ['x'], k: 3 });
    expect(partial.guarantee.statement).toMatch(/k-anonymous on the aggregated columns only/);
    expect(partial.warnings.join(' ')).toMatch(/sex/);
    const whole = run(table, { type: 'microaggregation', columns: ['x'], k: 3 }, 1, { sex: 'insensitive' });
    expect(whole.guarantee.statement).toMatch(/k-anonymous on its quasi-identifiers/);
    expect(whole.warnings).toEqual([]);
  });

  it('refuses what is not a decimal number, naming the column and the record', () => {
    for (const bad of ['0x10', 'Infinity', '1,5', 'NaN']) {
      const table = tableFromRows(['x'], [['1'], ['2'], [bad], ['4']]);
      expect(() => run(table, { type: 'microaggregation', columns: ['x'], k: 2 })).toThrow(`column "x" holds "${bad}", not a number at record 3 (line 4`);
    }
    const fine = tableFromRows(['x'], [['1e1'], [' 2 '], ['-.5'], ['+4.']]);
    const released = cells(run(fine, { type: 'microaggregation', columns: ['x'], k: 2 }).releases[0]!.table, ['x']).map((r) => Number(r[0]));
    expect(released.reduce((a, b) => a + b, 0)).toBeCloseTo(10 + 2 - 0.5 + 4, 9);
  });

  it('refuses an identifier, a column it does not have, and fewer records than k', () => {
    const table = tableFromRows(['x', 'id'], [['1', 'a'], ['2', 'b'], ['3', 'c']]);
    expect(() => run(table, { type: 'microaggregation', columns: ['x'], k: 4 })).toThrow(/3 record\(s\) cannot form a group of k = 4/);
    expect(() => run(table, { type: 'microaggregation', columns: ['nope'], k: 2 })).toThrow(JobError);
    expect(() => run(table, { type: 'microaggregation', columns: ['id'], k: 2 }, 1, { id: 'identifier' })).toThrow(/identifier/);
  });

  it('the job schema refuses a plain object of columns, a duplicate column and no column', () => {
    expect(() => job({ type: 'microaggregation', columns: { age: true }, k: 5 })).toThrow();
    expect(() => job({ type: 'microaggregation', columns: ['age', 'age'], k: 5 })).toThrow(/named twice/);
    expect(() => job({ type: 'microaggregation', columns: [], k: 5 })).toThrow(/at least one/);
    expect(() => job({ type: 'microaggregation', columns: ['age'], k: 1 })).toThrow(/at least 2/);
    expect(() => job({ type: 'microaggregation', columns: ['age'], k: 5, extra: 1 })).toThrow();
  });

  it('partitioned MDAV runs where MDAV is refused (past its work limit), each group still ≥ k, and says how it grouped', () => {
    const n = 120_000;
    const table = tableFromRows(['x'], Array.from({ length: n }, (_, r) => [String((r * 7919) % 997)]));
    expect(() => run(table, { type: 'microaggregation', columns: ['x'], k: 2 })).toThrow(/partitioned-mdav/);
    const outcome = run(table, { type: 'microaggregation', columns: ['x'], k: 2, algorithm: 'partitioned-mdav', blockSize: 400 });
    expect(outcome.guarantee.holds).toBe(true);
    const counts = new Map<string, number>();
    for (const [x] of cells(outcome.releases[0]!.table, ['x'])) counts.set(x!, (counts.get(x!) ?? 0) + 1);
    expect(Math.min(...counts.values())).toBeGreaterThanOrEqual(2);
    expect(outcome.externalSummary.join(' ')).toMatch(/partitioned MDAV: the records ordered along the first principal direction .* blocks of 400 to 799/);
    expect(outcome.guarantee.statement).toMatch(/partitioned MDAV \(MDAV within blocks of records\) put every record in a group of 2 to 3 records/);
    expect(outcome.method.parameters).toMatchObject({ algorithm: 'partitioned-mdav', blockSize: 400 });
    // One block of every record is MDAV's own work: refused under its key.
    expect(() => run(table, { type: 'microaggregation', columns: ['x'], k: 2, algorithm: 'partitioned-mdav', blockSize: n })).toThrow(/use smaller blocks or a larger k/);
  });

  it('the job schema takes blockSize with partitioned MDAV only, and never below k', () => {
    expect(() => job({ type: 'microaggregation', columns: ['age'], k: 5, blockSize: 100 })).toThrow(/blockSize is a setting of algorithm "partitioned-mdav" only/);
    expect(() => job({ type: 'microaggregation', columns: ['age'], k: 5, algorithm: 'partitioned-mdav', blockSize: 4 })).toThrow(/blockSize 4 is below k = 5/);
    expect(() => job({ type: 'microaggregation', columns: ['age'], k: 5, algorithm: 'kmeans' })).toThrow();
    expect(job({ type: 'microaggregation', columns: ['age'], k: 5, algorithm: 'partitioned-mdav' }).method).toMatchObject({ algorithm: 'partitioned-mdav' });
  });
});
