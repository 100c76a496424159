/**
 * The sheet XML is written with fewer copies than cells (a row opened with its first cell, a cell
 * joined with the next column's reference): whatever cells are missing, each value must land in its
 * own row and column. SheetJS places cells by their references, so it reads back exactly the table.
 */
import fc from 'fast-check';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import * as XLSX from 'xlsx';
import { tableFromRows } from '../../src/common/table/table.js';
import { compactReleaseTable } from '../../src/io/output/release-table.js';
import { writeXlsx } from '../../src/io/output/xlsx-writer.js';

const dir = mkdtempSync(join(tmpdir(), 'custos-xlsx-cells-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('every released cell lands in its own row and column of the sheet', () => {
  it('reads back the table, empty cells anywhere in a row', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 5 }).chain((width) => fc.array(fc.array(fc.constantFrom('', 'a', 'b', 'ccc', 'x y'), { minLength: width, maxLength: width }), { minLength: 1, maxLength: 12 })),
        async (rows) => {
          const header = rows[0]!.map((_, j) => `c${j}`);
          const table = tableFromRows(header, rows, ['']);
          const release = compactReleaseTable({ rowCount: table.rowCount, columns: table.columns.map((c) => ({ name: c.name, dictionary: c.dictionary, codes: c.codes, via: null, numeric: false })) });
          const path = join(dir, `t${n++}.xlsx`);
          await writeXlsx(path, [{ name: 'Data', table: release }]);
          const sheet = XLSX.read(readFileSync(path), { type: 'buffer' }).Sheets['Data']!;
          const back = XLSX.utils.sheet_to_json<string[]>(sheet, { header: 1, defval: '', blankrows: true, raw: false });
          const expected = [header, ...rows];
          expect(back.map((row) => header.map((_, j) => row[j] ?? ''))).toEqual(expected.slice(0, back.length));
          // Trailing rows with every cell missing hold no cell: SheetJS's range ends before them.
          expect(expected.slice(back.length).every((row) => row.every((v) => v === ''))).toBe(true);
        },
      ),
      { seed: 41, numRuns: 120 },
    );
  });
});
