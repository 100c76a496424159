import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rfc4180, writeCsv } from '../../src/io/output/csv-writer.js';
import { writeDta } from '../../src/io/output/dta-writer.js';
import { writeParquet } from '../../src/io/output/parquet-writer.js';
import { compactReleaseTable, type ReleaseColumn, type ReleaseTable } from '../../src/io/output/release-table.js';
import { writeSav } from '../../src/io/output/sav-writer.js';
import { writeXlsx } from '../../src/io/output/xlsx-writer.js';

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

  it('a withheld record holding text in a numeric column changes no released byte, in any format (the column is typed from the released values)', async () => {
    // The input typed "age" and "income" as text because of the withheld record ("unknown", "n/a"); the run marked them not numeric.
    const withheld: ReleaseTable = {
      rowCount: 3,
      columns: [
        { name: 'age', dictionary: ['', '34', 'unknown', '51'], codes: Uint32Array.of(1, 2, 3, 1), via: Uint32Array.of(0, 2, 3), numeric: false },
        { name: 'income', dictionary: ['', '1.5', 'n/a', '-2'], codes: Uint32Array.of(1, 2, 3, 0), via: Uint32Array.of(0, 2, 3), numeric: false },
        { name: 'zip', dictionary: ['', '01234', 'x-1', '10115'], codes: Uint32Array.of(1, 2, 3, 3), via: Uint32Array.of(0, 2, 3), numeric: false },
      ],
    };
    // The same released rows from an input without that record: numeric as the input was typed.
    const without: ReleaseTable = {
      rowCount: 3,
      columns: [
        { name: 'age', dictionary: ['', '34', '51'], codes: Uint32Array.of(1, 2, 1), via: null, numeric: true },
        { name: 'income', dictionary: ['', '1.5', '-2'], codes: Uint32Array.of(1, 2, 0), via: null, numeric: true },
        // Leading zeros: text either way.
        { name: 'zip', dictionary: ['', '01234', '10115'], codes: Uint32Array.of(1, 2, 2), via: null, numeric: false },
      ],
    };
    const created = new Date('2026-11-28T00:00:00Z');
    const write = async (table: ReleaseTable, dir: string): Promise<Record<string, Buffer>> => {
      const compact = compactReleaseTable(table);
      writeCsv(join(dir, 'release.csv'), compact, rfc4180());
      await writeXlsx(join(dir, 'release.xlsx'), [{ name: 'Release', table: compact }], [], undefined, created);
      writeParquet(join(dir, 'release.parquet'), compact);
      writeSav(join(dir, 'release.sav'), compact, () => undefined, created);
      writeDta(join(dir, 'release.dta'), compact, () => undefined, created);
      return Object.fromEntries(['csv', 'xlsx', 'parquet', 'sav', 'dta'].map((f) => [f, readFileSync(join(dir, `release.${f}`))]));
    };
    const a = await write(withheld, mkdtempSync(join(tmpdir(), 'custos-numeric-')));
    const b = await write(without, mkdtempSync(join(tmpdir(), 'custos-numeric-')));
    for (const format of Object.keys(a)) expect(a[format]!.equals(b[format]!), format).toBe(true);
    expect(compactReleaseTable(withheld).columns.map((c) => c.numeric)).toEqual([true, true, false]);
  });

  it('returns a column that is already compact as it is (no copy of its codes)', () => {
    const column: ReleaseColumn = { name: 'n', dictionary: ['', 'a', 'b'], codes: Uint32Array.of(1, 2, 1, 0), via: null, numeric: false };
    expect(compactReleaseTable({ rowCount: 4, columns: [column] }).columns[0]).toBe(column);
  });
});
