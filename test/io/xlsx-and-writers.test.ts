import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as XLSX from 'xlsx';
import { tableFromRows } from '../../src/common/table/table.js';
import { readCsv } from '../../src/io/input/csv-reader.js';
import { readXlsx } from '../../src/io/input/xlsx-reader.js';
import { rfc4180, writeCsv } from '../../src/io/output/csv-writer.js';
import { neutralizeFormula } from '../../src/io/output/neutralize.js';
import { compactReleaseTable, type CompactTable } from '../../src/io/output/release-table.js';
import { CellTooLongError, exactNumber, SheetNames, writeXlsx } from '../../src/io/output/xlsx-writer.js';
import { UnencodableError } from '../../src/io/output/text-encoding.js';
import { existsSync } from 'node:fs';

const dir = mkdtempSync(join(tmpdir(), 'custos-xlsx-'));

function release(rows: string[][], header: string[]): CompactTable {
  const table = tableFromRows(header, rows, []);
  return compactReleaseTable({
    rowCount: table.rowCount,
    columns: table.columns.map((c) => ({ name: c.name, dictionary: c.dictionary, codes: c.codes, via: null, numeric: c.type === 'integer' })),
  });
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
  writeCsv(path, release([[text]], ['a']), rfc4180(','));
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
    // After white space or a line break, and in full width, a trigger is still one (programs trim differently).
    expect(neutralizeFormula(' =1')).toBe("' =1");
    expect(neutralizeFormula('\n=1')).toBe("'\n=1");
    expect(neutralizeFormula('\uff1d1+1')).toBe("'\uff1d1+1");
    expect(neutralizeFormula('  plain')).toBe('  plain');
    expect(neutralizeFormula(' ')).toBe(' ');
    // A lone sign (a "no value" mark) cannot run; two signs or a sign with more after it can.
    for (const lone of ['-', '+', ' - ', '\uff0d']) expect(neutralizeFormula(lone)).toBe(lone);
    for (const risky of ['--', '-+', '- 1', '+41 22 123 45 67', '-\n=1', '\t-', '\n-']) expect(neutralizeFormula(risky)).toBe(`'${risky}`);
  });

  it('CSV output round-trips through the reader, quoting what needs quoting', () => {
    const rows = [['=HYPERLINK("x")', 'a,b'], ['line\nbreak', '-3'], ['"q"', '']];
    const path = join(dir, 'out.csv');
    const written = writeCsv(path, release(rows, ['c1', 'c2']), rfc4180(','));
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
    // A typed string cell never evaluates: no guard apostrophe in the workbook, and no formula.
    expect(first[2]).toEqual([1, '=1+1']);
    const cell = book.Sheets['Release 1']!['B3'] as XLSX.CellObject;
    expect(cell.f).toBeUndefined();
    expect(cell.t).toBe('s');
    const last = XLSX.utils.sheet_to_json<unknown[]>(book.Sheets['Release 3']!, { header: 1 });
    expect(last.length).toBe(6);
  });

  it('one value reads the same from the CSV and the XLSX release (CR, CRLF, NUL, controls, formula triggers)', async () => {
    const tricky = ['=1+1', '+x', '-3a', '@A', '\tlead', 'a\rb', 'a\r\nb', 'a\nb', 'nul\u0000here', 'bell\u0007', 'lone\ud800', 'plain', '-5'];
    const rows = tricky.map((v, i) => [String(i), v]);
    const table = release(rows, ['n', 'v']);
    const csvPath = join(dir, 'parity.csv');
    const xlsxPath = join(dir, 'parity.xlsx');
    writeCsv(csvPath, table, rfc4180(','));
    await writeXlsx(xlsxPath, [{ name: 'Release', table }]);
    const csv = readCsv(csvPath, { missing: [], onBadRow: 'error' }).table;
    const csvValues = Array.from({ length: csv.rowCount }, (_, r) => csv.columns[1]!.dictionary[csv.columns[1]!.codes[r]!]!);
    const book = XLSX.read(readFileSync(xlsxPath));
    const xlsxValues = XLSX.utils.sheet_to_json<unknown[]>(book.Sheets['Release']!, { header: 1, raw: true }).slice(1).map((row) => String(row[1]));
    // The workbook holds the value; the CSV holds the same value with the formula guard where a trigger leads.
    expect(csvValues).toEqual(xlsxValues.map((v) => neutralizeFormula(v)));
    expect(xlsxValues).toEqual(['=1+1', '+x', '-3a', '@A', '\tlead', 'a\nb', 'a\nb', 'a\nb', 'nul\ufffdhere', 'bell\ufffd', 'lone\ufffd', 'plain', '-5']);
    expect(csvValues.slice(0, 5)).toEqual(["'=1+1", "'+x", "'-3a", "'@A", "'\tlead"]);
  });

  it('XLSX output: XML specials, white space, names that are data, empty cells and numbers survive; each text once in the shared strings', async () => {
    const values = ['a<b>&"c"', '  padded  ', 'two\nlines', '__proto__', 'constructor', '', 'ünïcödé ✓', '<row r="1">'];
    const rows = values.map((v, i) => [String(i * 10), v, v]);
    const path = join(dir, 'specials.xlsx');
    await writeXlsx(path, [{ name: 'Release', table: release(rows, ['n', 'a & b', '__proto__']) }], [{ name: 'About', rows: [['key', 'value'], ['rows', 8], ['empty', '']] }]);
    const book = XLSX.read(readFileSync(path));
    const sheet = XLSX.utils.sheet_to_json<unknown[]>(book.Sheets['Release']!, { header: 1, raw: true, defval: null });
    expect(sheet[0]).toEqual(['n', 'a & b', '__proto__']);
    expect(sheet.slice(1).map((row) => row[0])).toEqual(values.map((_, i) => i * 10));
    // An empty value is an empty cell, not a string of length 0.
    expect(sheet.slice(1).map((row) => row[1])).toEqual(values.map((v) => (v === '' ? null : v)));
    expect(book.Sheets['Release']!['B7']).toBeUndefined();
    const about = XLSX.utils.sheet_to_json<unknown[]>(book.Sheets['About']!, { header: 1, raw: true, defval: null });
    expect(about).toEqual([['key', 'value'], ['rows', 8], ['empty', null]]);
    // The two text columns share one dictionary's strings: every distinct text is stored once.
    const sst = (book as unknown as { Strings: { t: string }[] }).Strings.map((s) => s.t);
    expect(new Set(sst).size).toBe(sst.length);
    expect(sst.filter((t) => t === '__proto__')).toHaveLength(1);
  });

  it('sheet names follow the rules of Excel: no [ ] : * ? / \\, no edge apostrophes, unique regardless of case, part numbers kept whole', async () => {
    const names = new SheetNames();
    expect(names.name('Release a/b:c[1]*?<&>')).toBe('Release a_b_c_1___<&>');
    expect(names.name("'quoted'")).toBe('quoted');
    expect(names.name('Release sensitive_column_long_name_one')).toBe('Release sensitive_column_long_n');
    expect(names.name('Release sensitive_column_long_name_two')).toBe('Release sensitive_column_lo (2)');
    expect(names.name('RELEASE SENSITIVE_COLUMN_LONG_NAME_ONE')).toBe('RELEASE SENSITIVE_COLUMN_LO (3)');
    expect(names.name('Release with a very long name here', ' 12')).toBe('Release with a very long nam 12');
    // Never through a surrogate pair.
    expect([...names.name('😀'.repeat(40))]).toHaveLength(31);
    const path = join(dir, 'names.xlsx');
    const { sheets } = await writeXlsx(path, [{ name: 'Release a/b', table: release([['1']], ['n']) }, { name: 'release A/B', table: release([['2']], ['n']) }]);
    expect(sheets).toEqual(['Release a_b', 'release A_B (2)']);
    expect(XLSX.read(readFileSync(path)).SheetNames).toEqual(['Release a_b', 'release A_B (2)']);
  });

  it('numbers a workbook cannot hold exactly stay text, equal to the CSV; longer cells than Excel holds are refused', async () => {
    for (const [value, exact] of [['12', true], ['4250.50', true], ['0.1', true], ['123456789012345', true], ['1234567890123456', false], ['12345678901234567890', false], ['-0', false], ['-0.0', false], ['1e-400', false], ['0', true], ['1e400', false], ['007', true]] as const) {
      expect(exactNumber(value), value).toBe(exact);
    }
    const table = compactReleaseTable({ rowCount: 2, columns: [{ name: 'id', dictionary: ['', '12345678901234567890', '7'], codes: Uint32Array.of(1, 2), via: null, numeric: true }] });
    const path = join(dir, 'ids.xlsx');
    await writeXlsx(path, [{ name: 'Release', table }]);
    const values = XLSX.utils.sheet_to_json<unknown[]>(XLSX.read(readFileSync(path)).Sheets['Release']!, { header: 1, raw: true }).slice(1).map((r) => r[0]);
    expect(values).toEqual(['12345678901234567890', '7']);
    const long = compactReleaseTable({ rowCount: 1, columns: [{ name: 'text', dictionary: ['', 'x'.repeat(32_768)], codes: Uint32Array.of(1), via: null, numeric: false }] });
    await expect(writeXlsx(join(dir, 'long.xlsx'), [{ name: 'Release', table: long }])).rejects.toThrow(CellTooLongError);
    expect(existsSync(join(dir, 'long.xlsx'))).toBe(false);
    // A column name Excel would cut is refused too, not cut silently.
    const longName = compactReleaseTable({ rowCount: 1, columns: [{ name: 'n'.repeat(40_000), dictionary: ['', 'x'], codes: Uint32Array.of(1), via: null, numeric: false }] });
    await expect(writeXlsx(join(dir, 'long-name.xlsx'), [{ name: 'Release', table: longName }])).rejects.toThrow(/the name of column “n{40}…” has 40,000 characters/);
    expect(existsSync(join(dir, 'long-name.xlsx'))).toBe(false);
  });

  it('a Windows-1252 CSV refuses a value that becomes U+FFFD when written, before the file is opened', () => {
    const path = join(dir, 'control.csv');
    expect(() => writeCsv(path, release([['a\u0001b']], ['v']), { delimiter: ',', encoding: 'windows-1252', lineEnding: 'crlf' })).toThrow(UnencodableError);
    expect(existsSync(path)).toBe(false);
  });
});

describe('long values in the release writers', () => {
  // Values come from input files and can be megabytes: each check must cost time in proportion to
  // the value. Regexes that retried from every position of a long run (/ +$/, \d+\.?\d*) took
  // seconds for 50,000 characters and hours for a million.
  it('the formula guard and the number check are linear in the value', () => {
    const started = performance.now();
    const blanks = `a${' '.repeat(50_000)}x`;
    expect(neutralizeFormula(blanks)).toBe(blanks);
    const digits = `-${'1'.repeat(50_000)}x`;
    expect(neutralizeFormula(digits)).toBe(`'${digits}`);
    expect(neutralizeFormula(`-${'1'.repeat(50_000)}`)).toBe(`-${'1'.repeat(50_000)}`);
    expect(exactNumber(`1.${'0'.repeat(50_000)}1`)).toBe(false);
    expect(exactNumber(`1.${'0'.repeat(50_000)}`)).toBe(true);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
