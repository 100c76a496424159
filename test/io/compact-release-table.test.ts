import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compactReleaseTable, type ReleaseColumn, type ReleaseTable } from '../../src/io/output/release-table.js';

/** The released values row by row, read through `via` as every writer reads them. */
function rows(table: ReleaseTable): string[][] {
  return Array.from({ length: table.rowCount }, (_, r) => table.columns.map((c) => c.dictionary[c.codes[c.via ? c.via[r]! : r]!]!));
}

/** A column over a dictionary (entry 0 the empty value or not), read directly or through `via` (rows of a larger input, repeats allowed). */
const columnAndRows = fc
  .record({
    dictionary: fc.uniqueArray(fc.string({ maxLength: 3 }), { minLength: 1, maxLength: 12 }),
    inputRows: fc.integer({ min: 1, max: 40 }),
    useVia: fc.boolean(),
    seed: fc.array(fc.nat(), { minLength: 80, maxLength: 80 }),
    rowCount: fc.integer({ min: 0, max: 30 }),
  })
  .map(({ dictionary, inputRows, useVia, seed, rowCount }) => {
    const codes = Uint32Array.from({ length: useVia ? inputRows : rowCount }, (_, i) => seed[i % seed.length]! % dictionary.length);
    const via = useVia ? Uint32Array.from({ length: rowCount }, (_, r) => seed[(r + 41) % seed.length]! % inputRows) : null;
    const column: ReleaseColumn = { name: 'c', dictionary, codes, via, numeric: false };
    return { rowCount, columns: [column] } satisfies ReleaseTable;
  });

describe('compactReleaseTable', () => {
  it('keeps every released value and keeps nothing else, numbered in order of first appearance', () => {
    fc.assert(
      fc.property(columnAndRows, (table) => {
        const compact = compactReleaseTable(table);
        expect(rows(compact)).toEqual(rows(table));
        const [column] = compact.columns;
        const shown = rows(table).map((row) => row[0]!);
        const firstSeen = [...new Set(shown)];
        // The empty value is code 0 wherever the column had it; every other entry is a value some row shows.
        const expected = table.columns[0]!.dictionary.includes('') ? ['', ...firstSeen.filter((v) => v !== '')] : firstSeen;
        expect(column!.dictionary).toEqual(expected);
      }),
      { seed: 20261127, numRuns: 400 },
    );
  });

  it('drops the values of rows that are not released (the canary a method suppressed)', () => {
    const column: ReleaseColumn = { name: 'note', dictionary: ['', 'kept', 'CANARY', 'also kept'], codes: Uint32Array.of(3, 2, 1, 1), via: Uint32Array.of(0, 2, 3), numeric: false };
    const compact = compactReleaseTable({ rowCount: 3, columns: [column] });
    expect(compact.columns[0]!.dictionary).toEqual(['', 'also kept', 'kept']);
    expect(rows(compact)).toEqual([['also kept'], ['kept'], ['kept']]);
  });

  it('makes the empty value code 0 wherever the column had it, as a CSV read back has it (so verify writes the same Parquet nulls)', () => {
    const column: ReleaseColumn = { name: 'region', dictionary: ['Basel', 'Zürich', ''], codes: Uint32Array.of(1, 2, 0, 2), via: null, numeric: false };
    const compact = compactReleaseTable({ rowCount: 4, columns: [column] }).columns[0]!;
    expect(compact.dictionary).toEqual(['', 'Zürich', 'Basel']);
    expect(Array.from(compact.codes)).toEqual([1, 0, 2, 0]);
  });

  it('returns a column that is already compact as it is (no copy of its codes)', () => {
    const column: ReleaseColumn = { name: 'n', dictionary: ['', 'a', 'b'], codes: Uint32Array.of(1, 2, 1, 0), via: null, numeric: false };
    expect(compactReleaseTable({ rowCount: 4, columns: [column] }).columns[0]).toBe(column);
  });
});
