import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkZipLimits, MAX_WORKBOOK_CELLS, ZipLimitError } from '../../src/io/input/zip-limits.js';
import { readXlsx } from '../../src/io/input/xlsx-reader.js';
import { searchableText } from '../../src/io/input/searchable-text.js';
import { InputError } from '../../src/io/input/input-error.js';
import { zip } from './zip-writer.js';

const CONTENT_TYPES = '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>';
const RELS = '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>';
const WORKBOOK = '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Data" sheetId="1" r:id="rId1"/></sheets></workbook>';
const WORKBOOK_RELS = '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>';

function sheetXml(rows: number, padding = 0): Buffer {
  const parts = ['<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'];
  parts.push('<row r="1"><c r="A1" t="inlineStr"><is><t>age</t></is></c><c r="B1" t="inlineStr"><is><t>job</t></is></c></row>');
  for (let r = 2; r <= rows; r++) parts.push(`<row r="${r}"><c r="A${r}"><v>${20 + (r % 50)}</v></c><c r="B${r}" t="inlineStr"><is><t>x</t></is></c></row>`);
  parts.push('</sheetData>', ' '.repeat(padding), '</worksheet>');
  return Buffer.from(parts.join(''));
}

function workbook(sheet: Buffer, declared?: number): Buffer {
  return zip([
    { name: '[Content_Types].xml', data: Buffer.from(CONTENT_TYPES) },
    { name: '_rels/.rels', data: Buffer.from(RELS) },
    { name: 'xl/workbook.xml', data: Buffer.from(WORKBOOK) },
    { name: 'xl/_rels/workbook.xml.rels', data: Buffer.from(WORKBOOK_RELS) },
    { name: 'xl/worksheets/sheet1.xml', data: sheet, ...(declared !== undefined ? { declared } : {}) },
  ]);
}

const CLI = resolve('dist/cli/custos.mjs');

const made: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'custos-xlsx-'));
  made.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function inspect(path: string, json = false): { code: number; stderr: string; ms: number; stdout: string } {
  const start = Date.now();
  const r = spawnSync(process.execPath, [CLI, 'inspect', path, ...(json ? ['--json'] : [])], { encoding: 'utf8', timeout: 60_000 });
  return { code: r.status ?? -1, stderr: r.stderr, stdout: r.stdout, ms: Date.now() - start };
}

describe('workbooks are read with limits', () => {
  it('a well-formed workbook built by the test zip writer opens (the control)', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'ok.xlsx'), workbook(sheetXml(100)));
    const r = inspect(join(dir, 'ok.xlsx'), true);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).rows).toBe(99);
  });

  it('a sheet with more rows than the row limit is refused naming the file and the row; one at the limit opens', () => {
    const dir = tempDir();
    // 50 rows with the header; the limit is lowered so the test need not build Excel's 1,048,576.
    writeFileSync(join(dir, 'long.xlsx'), workbook(sheetXml(50)));
    const options = { missing: [''], onBadRow: 'error' } as const;
    expect(readXlsx(join(dir, 'long.xlsx'), options, 50).table.rowCount).toBe(49);
    let refusal: unknown;
    try {
      readXlsx(join(dir, 'long.xlsx'), options, 49);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(InputError);
    expect((refusal as InputError).message).toMatch(/long\.xlsx.*more than Excel's 49 rows/);
    expect((refusal as InputError).line).toBe(50);
  });

  it('declared sizes above the limit are refused before inflating; a part that inflates past its declared size is a bomb', () => {
    const honest = workbook(sheetXml(2000));
    expect(() => checkZipLimits(honest, 1024 * 1024)).not.toThrow();
    expect(() => checkZipLimits(honest, 10_000)).toThrow(/would inflate to more than/);
    const lying = workbook(sheetXml(2000, 5 * 1024 * 1024), 4096);
    expect(() => checkZipLimits(lying, 1024 * 1024)).toThrow(ZipLimitError);
    expect(() => checkZipLimits(lying, 1024 * 1024)).toThrow(/more than its declared size/);
    expect(() => checkZipLimits(Buffer.from('PK\u0003\u0004 not really a zip'))).toThrow(/zip directory is missing/);
  });

  it('a deflated part declaring no compressed bytes, or a second end record in the last bytes, is refused (either would let the library inflate what was never checked)', () => {
    const honest = workbook(sheetXml(200));
    expect(() => checkZipLimits(honest)).not.toThrow();
    // The sheet's central directory entry (the last) claims 0 compressed bytes.
    const noBytes = Buffer.from(honest);
    const directory = noBytes.readUInt32LE(noBytes.length - 22 + 16);
    let entry = directory;
    for (let n = 0; n < 4; n++) entry += 46 + noBytes.readUInt16LE(entry + 28);
    noBytes.writeUInt32LE(0, entry + 20);
    expect(() => checkZipLimits(noBytes)).toThrow(/a compressed part declares no compressed bytes/);
    // An end-of-directory signature in the last 21 bytes, where a search from the end finds it first.
    const tail = Buffer.alloc(21);
    tail.writeUInt32LE(0x06054b50, 0);
    expect(() => checkZipLimits(Buffer.concat([honest, tail]))).toThrow(/the zip directory is damaged/);
  });

  it('sheets holding more cells than the library can hold in memory are refused before it parses them, counted in any part and with any prefix', () => {
    const cells = (n: number, tag = '<c/>'): Buffer => Buffer.from(`<worksheet><sheetData><row r="1">${tag.repeat(n)}</row></sheetData><cols><col min="1"/></cols></worksheet>`);
    expect(() => checkZipLimits(workbook(cells(MAX_WORKBOOK_CELLS)), 512 * 1024 * 1024)).not.toThrow();
    expect(() => checkZipLimits(workbook(cells(MAX_WORKBOOK_CELLS + 1)), 512 * 1024 * 1024)).toThrow(/its sheets hold more than 16,777,216 cells/);
    expect(() => checkZipLimits(workbook(cells(MAX_WORKBOOK_CELLS / 2 + 1, '<x:c>1</x:c><c r="A1"/>')), 512 * 1024 * 1024)).toThrow(/more than 16,777,216 cells/);
  });

  it('a 1 MB workbook whose sheet inflates to 300 MB exits 3 within seconds', () => {
    const dir = tempDir();
    // Whitespace compresses about 1000:1: the file is small, the XML is not.
    const bomb = workbook(sheetXml(10, 300 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
    writeFileSync(join(dir, 'bomb.xlsx'), bomb);
    const r = inspect(join(dir, 'bomb.xlsx'));
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/bomb\.xlsx: the workbook cannot be read safely: its parts would inflate to more than 128 MiB/);
    expect(r.ms).toBeLessThan(10_000);
    // The same bomb declaring a small size is caught while inflating, with the output capped.
    writeFileSync(join(dir, 'liar.xlsx'), workbook(sheetXml(10, 300 * 1024 * 1024), 10_000));
    const liar = inspect(join(dir, 'liar.xlsx'));
    expect(liar.code).toBe(3);
    expect(liar.stderr).toMatch(/zip bomb/);
  });
});

/** A sheet of the given XML rows, under a <dimension> that may claim more than they hold. */
function sheetWithRows(rows: string[], dimension?: string): Buffer {
  const head = '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">';
  return Buffer.from(`${head}${dimension ? `<dimension ref="${dimension}"/>` : ''}<sheetData>${rows.join('')}</sheetData></worksheet>`);
}

describe('sheets whose range is far wider than their cells', () => {
  it('rows holding a cell in column A and one in XFD are refused naming the range, not read as 16,384 columns', () => {
    // 1,100 rows × 16,384 columns: 18 million cells from 60 KB of zip. At 20,000 rows (620 KB) the
    // heap ran out after a minute.
    const rows = Array.from({ length: 1100 }, (_, i) => `<row r="${i + 1}"><c r="A${i + 1}"><v>${i}</v></c><c r="XFD${i + 1}"><v>${i}</v></c></row>`);
    const dir = tempDir();
    writeFileSync(join(dir, 'wide.xlsx'), workbook(sheetWithRows(rows)));
    expect(() => readXlsx(join(dir, 'wide.xlsx'), { missing: [''], onBadRow: 'error' })).toThrow(
      'wide.xlsx (sheet "Data"): the sheet\'s 1,100 rows span A1:XFD1100 (18,022,400 cells, more than the 16,777,216 Custos reads from a workbook); delete stray cells far right of the table, or export the sheet as CSV',
    );
  });

  it('a <dimension> claiming the whole grid for a few cells is read as the cells', () => {
    const rows = ['<row r="1"><c r="A1" t="inlineStr"><is><t>a</t></is></c><c r="B1" t="inlineStr"><is><t>b</t></is></c></row>', '<row r="2"><c r="A2"><v>1</v></c><c r="B2"><v>2</v></c></row>'];
    const dir = tempDir();
    writeFileSync(join(dir, 'dimension.xlsx'), workbook(sheetWithRows(rows, 'A1:XFD1048576')));
    const imported = readXlsx(join(dir, 'dimension.xlsx'), { missing: [''], onBadRow: 'error' });
    expect([imported.table.rowCount, imported.table.columns.map((c) => c.name)]).toEqual([1, ['a', 'b']]);
  });
});

describe("verify's one reading of a release workbook (text and tables) meets the same limits", () => {
  const options = { missing: [] as string[], onBadRow: 'error' } as const;

  it('a zip bomb is refused naming the file, before anything is inflated in full', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'bomb.xlsx'), workbook(sheetXml(10, 300 * 1024 * 1024)));
    writeFileSync(join(dir, 'liar.xlsx'), workbook(sheetXml(10, 300 * 1024 * 1024), 10_000));
    expect(() => searchableText(join(dir, 'bomb.xlsx'), options)).toThrow(/bomb\.xlsx: the workbook cannot be read safely: its parts would inflate to more than 128 MiB/);
    expect(() => searchableText(join(dir, 'liar.xlsx'), options)).toThrow(/liar\.xlsx: .*zip bomb/);
  });

  it("the limit is the caller's: a workbook past a lowered one is refused, and within the default read", () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'small.xlsx'), workbook(sheetXml(2000)));
    const lowered = { ...options, workbookLimit: 10_000 };
    expect(() => searchableText(join(dir, 'small.xlsx'), lowered)).toThrow(/small\.xlsx: the workbook cannot be read safely: its parts would inflate to more than/);
    expect(() => readXlsx(join(dir, 'small.xlsx'), lowered)).toThrow(/would inflate to more than/);
    expect(readXlsx(join(dir, 'small.xlsx'), options).table.rowCount).toBe(1999);
  });

  it('a sheet whose rows span column A to XFD is refused naming the range, not turned into text cell by cell', () => {
    const rows = Array.from({ length: 1100 }, (_, i) => `<row r="${i + 1}"><c r="A${i + 1}"><v>${i}</v></c><c r="XFD${i + 1}"><v>${i}</v></c></row>`);
    const dir = tempDir();
    writeFileSync(join(dir, 'wide.xlsx'), workbook(sheetWithRows(rows)));
    const start = Date.now();
    expect(() => searchableText(join(dir, 'wide.xlsx'), options)).toThrow(/wide\.xlsx \(sheet "Data"\): the sheet's 1,100 rows span A1:XFD1100/);
    expect(Date.now() - start).toBeLessThan(10_000);
  });

  it("a sheet's text and its table come from one parse and hold what readXlsx reads", () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'ok.xlsx'), workbook(sheetXml(30)));
    const parts = searchableText(join(dir, 'ok.xlsx'), options);
    expect(parts.map((p) => p.sheet)).toEqual([null, 'Data']);
    const data = parts[1]!;
    expect(data.text.split('\n').slice(0, 3)).toEqual(['Data', 'age,job', '22,x']);
    const table = data.table!();
    const direct = readXlsx(join(dir, 'ok.xlsx'), options).table;
    expect(table.rowCount).toBe(29);
    expect(table.columns.map((c) => [c.name, Array.from(c.codes, (code) => c.dictionary[code])])).toEqual(direct.columns.map((c) => [c.name, Array.from(c.codes, (code) => c.dictionary[code])]));
  });
});
