import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as XLSX from 'xlsx';
import { tableFromRows } from '../../src/engine/table.js';
import { readCsv } from '../../src/io/input/csv-reader.js';
import { readXlsx } from '../../src/io/input/xlsx-reader.js';
import { writeCsv } from '../../src/io/output/csv-writer.js';
import { neutralizeFormula } from '../../src/io/output/neutralize.js';
import type { ReleaseTable } from '../../src/io/output/release-table.js';
import { writeXlsx } from '../../src/io/output/xlsx-writer.js';

const dir = mkdtempSync(join(tmpdir(), 'custos-xlsx-'));

function release(rows: string[][], header: string[]): ReleaseTable {
  const table = tableFromRows(header, rows, []);
  return {
    rowCount: table.rowCount,
    columns: table.columns.map((c) => ({ name: c.name, dictionary: c.dictionary, codes: c.codes, via: null, numeric: c.type === 'integer' })),
  };
}

describe('XLSX import', () => {
  it('reads the chosen sheet with raw cells; text codes keep leading zeros', () => {
    const workbook = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(workbook, XLSX.utils.aoa_to_sheet([['x'], ['ignored']]), 'Notes');
    XLSX.utils.book_append_sheet(workbook, XLSX.utils.aoa_to_sheet([['zip', 'age', 'ok'], ['01234', 34, true], ['99999', 7.5, false]]), 'Data');
    const path = join(dir, 'book.xlsx');
    writeFileSync(path, XLSX.write(workbook, { type: 'buffer', bookType: 'xlsx' }) as Buffer);
    const byName = readXlsx(path, { sheet: 'Data', missing: [''], onBadRow: 'error' });
    expect(byName.sheet).toBe('Data');
    expect(byName.sheets).toEqual(['Notes', 'Data']);
    const [zip, age, ok] = byName.table.columns;
    expect(zip!.dictionary.slice(1)).toEqual(['01234', '99999']);
    expect(zip!.type).toBe('text');
    expect(age!.dictionary.slice(1)).toEqual(['34', '7.5']);
    expect(age!.type).toBe('decimal');
    expect(ok!.dictionary.slice(1)).toEqual(['TRUE', 'FALSE']);
    expect(readXlsx(path, { sheet: 1, missing: [''], onBadRow: 'error' }).table.rowCount).toBe(2);
    expect(() => readXlsx(path, { sheet: 'Missing', missing: [''], onBadRow: 'error' })).toThrow(/no sheet "Missing"; the workbook has "Notes", "Data"/);
  });

  it('a file that is not a workbook is an input error naming it', () => {
    const path = join(dir, 'fake.xlsx');
    writeCsvText(path, 'not a zip');
    expect(() => readXlsx(path, { missing: [''], onBadRow: 'error' })).toThrow(/fake\.xlsx/);
  });
});

function writeCsvText(path: string, text: string): void {
  writeCsv(path, release([[text]], ['a']), ',');
}

describe('release writers', () => {
  it('neutralizes formula triggers but leaves numbers alone', () => {
    expect(neutralizeFormula('=SUM(A1)')).toBe("'=SUM(A1)");
    expect(neutralizeFormula('+1-2')).toBe("'+1-2");
    expect(neutralizeFormula('@cmd')).toBe("'@cmd");
    expect(neutralizeFormula('\tx')).toBe("'\tx");
    expect(neutralizeFormula('-5')).toBe('-5');
    expect(neutralizeFormula('-1.5e3')).toBe('-1.5e3');
    expect(neutralizeFormula('plain')).toBe('plain');
  });

  it('CSV output round-trips through the reader, quoting what needs quoting', () => {
    const rows = [['=HYPERLINK("x")', 'a,b'], ['line\nbreak', '-3'], ['"q"', '']];
    const path = join(dir, 'out.csv');
    const written = writeCsv(path, release(rows, ['c1', 'c2']), ',');
    expect(written.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(written.bytes).toBe(readFileSync(path).length);
    const { table } = readCsv(path, { missing: [], onBadRow: 'error' });
    const back = Array.from({ length: table.rowCount }, (_, r) => table.columns.map((c) => c.dictionary[c.codes[r]!]!));
    expect(back).toEqual([["'=HYPERLINK(\"x\")", 'a,b'], ['line\nbreak', '-3'], ['"q"', '']]);
  });

  it('XLSX output splits sheets at the row limit and writes numbers as numbers', async () => {
    const rows = Array.from({ length: 25 }, (_, i) => [String(i), i % 2 ? '=1+1' : 'x']);
    const path = join(dir, 'split.xlsx');
    const { sheets } = await writeXlsx(path, [{ name: 'Release', table: release(rows, ['n', 't']) }], [{ name: 'About', rows: [['hello']] }], 10);
    expect(sheets).toEqual(['Release 1', 'Release 2', 'Release 3']);
    const book = XLSX.read(readFileSync(path));
    expect(book.SheetNames).toEqual(['Release 1', 'Release 2', 'Release 3', 'About']);
    const first = XLSX.utils.sheet_to_json<unknown[]>(book.Sheets['Release 1']!, { header: 1 });
    expect(first.length).toBe(11);
    expect(first[1]).toEqual([0, 'x']);
    expect(first[2]).toEqual([1, "'=1+1"]);
    const cell = book.Sheets['Release 1']!['B3'] as XLSX.CellObject;
    expect(cell.f).toBeUndefined();
    const last = XLSX.utils.sheet_to_json<unknown[]>(book.Sheets['Release 3']!, { header: 1 });
    expect(last.length).toBe(6);
  });
});
