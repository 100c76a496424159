import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTable } from '../../src/io/input/read-table.js';

const require = createRequire(import.meta.url);
const XLSX = require('xlsx') as typeof import('xlsx');
const dir = mkdtempSync(join(tmpdir(), 'custos-data-sheet-'));

function workbook(name: string, sheets: readonly [string, unknown[][]][]): string {
  const book = XLSX.utils.book_new();
  for (const [sheet, rows] of sheets) XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), sheet);
  const path = join(dir, name);
  XLSX.writeFile(book, path);
  return path;
}

const register = [['id', 'age', 'diagnosis'], ...Array.from({ length: 40 }, (_, i) => [`p${i}`, 20 + i, i % 3 === 0 ? 'J45' : 'E11'])];

describe('a workbook opened without a sheet named', () => {
  it('opens the sheet that holds the table, not a README or cover sheet before it', () => {
    const readme = ['This workbook holds the 2026 register.', 'Sheet "Register": one row per patient.', 'Contact: the statistics office.', '', 'Codes: ICD-10.'].map((line) => [line]);
    const path = workbook('readme-first.xlsx', [['README', readme], ['Register', register], ['Codes', [['J45', 'asthma']]]]);
    const read = readTable(path, { missing: [''], onBadRow: 'error', sheet: null });
    expect(read.sheet).toBe('Register');
    expect(read.sheets).toEqual(['README', 'Register', 'Codes']);
    expect(read.table.rowCount).toBe(40);
    expect(read.table.columns.map((c) => c.name)).toEqual(['id', 'age', 'diagnosis']);
  });

  it('keeps the first sheet when it holds the table, and a named sheet always', () => {
    const path = workbook('data-first.xlsx', [['Data', register], ['Lookup', [['a', 'b'], ['c', 'd']]]]);
    expect(readTable(path, { missing: [''], onBadRow: 'error', sheet: null }).sheet).toBe('Data');
    const readmePath = workbook('named.xlsx', [['README', [['x', 'y'], ['1', '2']]], ['Register', register]]);
    expect(readTable(readmePath, { missing: [''], onBadRow: 'error', sheet: 'README' }).sheet).toBe('README');
    expect(readTable(readmePath, { missing: [''], onBadRow: 'error', sheet: 0 }).sheet).toBe('README');
  });

  it('opens the first sheet when no sheet holds a row of two cells', () => {
    const path = workbook('lists.xlsx', [['A', [['x'], ['y']]], ['B', [['z'], ['w'], ['v']]]]);
    expect(readTable(path, { missing: [''], onBadRow: 'error', sheet: null }).sheet).toBe('A');
  });
});
