/**
 * A sheet's cells name their place (`r="C12"`) only after an empty cell of their row; every other
 * cell is in the column after the previous one (ECMA-376 Part 1, 18.3.1.4). Custos's own reader
 * (SheetJS) is checked on random tables in xlsx-sheet-cells.test.ts; this checks the readers a
 * custodian's users open a release with, which cannot run here: release.xlsx is what the writer makes
 * of table.csv (checked byte for byte, so the fixture stays the writer's), and openpyxl.csv,
 * libreoffice.csv and readxl.csv are what openpyxl 3.1, LibreOffice Calc 7.4 and R readxl 1.4 read
 * from it (make-readers.sh). Each must be table.csv, cell for cell.
 *
 * After a change of the sheet XML: UPDATE_XLSX_READERS=1 rewrites release.xlsx; then run
 * make-readers.sh (python3-openpyxl, libreoffice-calc-nogui, r-cran-readxl) and commit all four files.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readTable } from '../../src/io/input/read-table.js';
import { compactReleaseTable } from '../../src/io/output/release-table.js';
import { writeXlsx } from '../../src/io/output/xlsx-writer.js';
import { zipEntries, zipEntryText } from '../../src/jobs/verify/stored-types.js';
import { csvRecords } from '../csv-records.js';

const FIXTURES = resolve('test/fixtures/xlsx-readers');
const dir = mkdtempSync(join(tmpdir(), 'custos-xlsx-readers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function workbookOfTable(path: string): Promise<void> {
  const { table } = readTable(join(FIXTURES, 'table.csv'), { missing: [''], onBadRow: 'error' });
  const release = compactReleaseTable({
    rowCount: table.rowCount,
    columns: table.columns.map((c) => ({ name: c.name, dictionary: c.dictionary, codes: c.codes, via: null, numeric: c.type === 'integer' || c.type === 'decimal' })),
  });
  await writeXlsx(path, [{ name: 'release', table: release }]);
}

const sha256 = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');

describe('the workbook as other readers read it', () => {
  it('release.xlsx is what the writer makes of table.csv', async () => {
    const written = join(dir, 'release.xlsx');
    await workbookOfTable(written);
    if (process.env['UPDATE_XLSX_READERS'] === '1') writeFileSync(join(FIXTURES, 'release.xlsx'), readFileSync(written));
    expect(sha256(written)).toBe(sha256(join(FIXTURES, 'release.xlsx')));
    // The fixture has what the test is about: cells after empty ones (with a reference), and rows of
    // adjacent cells without any.
    const bytes = readFileSync(written);
    const xml = zipEntryText(bytes, zipEntries(bytes).find((e) => e.name === 'xl/worksheets/sheet1.xml')!);
    expect(xml).toMatch(/<c r="[B-F]\d+"/);
    expect(xml).toMatch(/<\/c><c t="s">/);
  });

  for (const reader of ['openpyxl', 'libreoffice', 'readxl']) {
    it(`${reader} reads every cell where table.csv has it`, () => {
      const expected = csvRecords(readFileSync(join(FIXTURES, 'table.csv'), 'utf8'));
      const read = csvRecords(readFileSync(join(FIXTURES, `${reader}.csv`), 'utf8'));
      const width = expected[0]!.length;
      expect(read.map((row) => Array.from({ length: width }, (_, j) => row[j] ?? ''))).toEqual(expected);
    });
  }
});
