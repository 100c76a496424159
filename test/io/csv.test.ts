import fc from 'fast-check';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCsv } from '../../src/io/input/csv-reader.js';
import { CsvSyntaxError, CsvTokenizer, MAX_RECORD_CHARS } from '../../src/io/input/csv-tokenizer.js';
import { sniffDelimiter } from '../../src/io/input/delimiter.js';
import type { ImportOptions } from '../../src/io/input/import-types.js';
import { InputError } from '../../src/io/input/input-error.js';
import { readTable } from '../../src/io/input/read-table.js';
import { createRequire } from 'node:module';

const XLSX = createRequire(import.meta.url)('xlsx') as typeof import('xlsx');

const dir = mkdtempSync(join(tmpdir(), 'custos-csv-'));
let counter = 0;
function file(content: string | Uint8Array, ext = '.csv'): string {
  const path = join(dir, `f${counter++}${ext}`);
  writeFileSync(path, content);
  return path;
}
const defaults: ImportOptions = { missing: [''], onBadRow: 'error' };
const values = (path: string, options: Partial<ImportOptions> = {}): string[][] => {
  const { table } = readCsv(path, { ...defaults, ...options });
  return Array.from({ length: table.rowCount }, (_, r) => table.columns.map((c) => c.dictionary[c.codes[r]!]!));
};

function tokenize(text: string, delimiter: string, splits: number[]): { fields: string[]; line: number }[] {
  const records: { fields: string[]; line: number }[] = [];
  const tokenizer = new CsvTokenizer(delimiter, { record: (f, n, line) => records.push({ fields: f.slice(0, n), line }) });
  let at = 0;
  for (const cut of [...splits].sort((a, b) => a - b)) {
    tokenizer.feed(text.slice(at, cut), false);
    at = cut;
  }
  tokenizer.feed(text.slice(at), true);
  return records;
}

describe('RFC 4180 parsing', () => {
  it('quoted fields hold separators, doubled quotes and line breaks', () => {
    const path = file('id,comment,code\r\n1,"a, b","say ""hi"""\r\n2,"two\r\nlines",007\r\n3,,x\r\n');
    expect(values(path)).toEqual([
      ['1', 'a, b', 'say "hi"'],
      ['2', 'two\r\nlines', '007'],
      ['3', '', 'x'],
    ]);
  });

  it('any chunking of the text gives the same records and line numbers (property)', () => {
    const text = 'a;b;c\n1;"x;\n""y""";3\r\n4;5;"6"\n"7\n\n8";9;\n10;11;12';
    const whole = tokenize(text, ';', []);
    expect(whole.map((r) => r.line)).toEqual([1, 2, 4, 5, 8]);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: text.length }), { maxLength: 8 }), (splits) => {
        expect(tokenize(text, ';', splits)).toEqual(whole);
      }),
    );
  });

  it('a row with the wrong number of fields stops the import with its line number', () => {
    const path = file('a,b\n1,2\n"multi\nline",3\n4,5,6\n');
    try {
      readCsv(path, defaults);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(InputError);
      expect((error as InputError).line).toBe(5);
      expect((error as Error).message).toMatch(/:5: 3 fields where the header has 2/);
    }
  });

  it('skip mode rejects the bad rows and lists them', () => {
    const path = file('a,b\n1,2\n3\n4,5\n6,7,8\n');
    const result = readCsv(path, { ...defaults, onBadRow: 'skip' });
    expect(result.table.rowCount).toBe(2);
    expect(result.rejectedRows.map((r) => r.line)).toEqual([3, 5]);
  });

  it('an unterminated quote and garbage after a closing quote are errors with positions', () => {
    expect(() => readCsv(file('a,b\n1,"open\n2,3\n'), defaults)).toThrow(/:2:2: a quoted field is never closed/);
    expect(() => readCsv(file('a,b\n1,"x"y\n'), defaults)).toThrow(/:2:2: unexpected "y" after a closing quote/);
  });

  it('a quote without its partner is refused once the field passes the record limit, naming where it opened; a long unquoted record likewise', () => {
    const records: number[] = [];
    const sink = { record: (_f: string[], _n: number, line: number) => records.push(line) };
    const tokenizer = new CsvTokenizer(',', sink);
    tokenizer.feed('a,b\n1,2\nx,"opens here\n', false);
    const block = 'no quote and no line break '.repeat(40_000);
    const feed = (): void => {
      for (let fed = 0; fed <= MAX_RECORD_CHARS; fed += block.length) tokenizer.feed(block, false);
    };
    expect(feed).toThrow(CsvSyntaxError);
    try {
      feed();
    } catch (error) {
      expect(error).toMatchObject({ line: 3, column: 2 });
      expect((error as Error).message).toMatch(/quoted field opened here runs past 67,108,864 characters without its closing quote/);
    }
    expect(records).toEqual([1, 2]);
    const unquoted = new CsvTokenizer(',', sink);
    unquoted.feed('a,b\n1,', false);
    expect(() => {
      for (let fed = 0; fed <= MAX_RECORD_CHARS; fed += block.length) unquoted.feed(block, false);
    }).toThrow(/a record starting here runs past 67,108,864 characters without a line break/);
  });

  it('a record held over many chunks reads the same as one fed whole (chunks without a quote or a line break wait unscanned)', () => {
    const text = 'a,b\n1,"x' + 'y'.repeat(5000) + '\n' + 'z'.repeat(3000) + '",2\n3,"q""r"\n';
    const whole = tokenize(text, ',', []);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: text.length }), { maxLength: 40 }), (splits) => {
        expect(tokenize(text, ',', splits)).toEqual(whole);
      }),
    );
    expect(whole.map((r) => r.line)).toEqual([1, 2, 4]);
  });

  it('names empty and repeated header names (header-names.test.ts) and refuses an empty file', () => {
    expect(readCsv(file('a,,c\n1,2,3\n'), defaults).table.columns.map((c) => c.name)).toEqual(['a', 'column_2', 'c']);
    expect(readCsv(file('a,a\n1,2\n'), defaults).table.columns.map((c) => c.name)).toEqual(['a', 'a_2']);
    expect(() => readCsv(file(''), defaults)).toThrow(/empty/);
  });

  it('refuses a table of no records wherever it is read, naming the file and line, unless the caller allows none (a released file)', () => {
    const headerOnly = file('a,b,c\n');
    expect(() => readTable(headerOnly, defaults)).toThrow(/f\d+\.csv:2: the file has a header but no records/);
    expect(readTable(headerOnly, { ...defaults, allowNoRecords: true }).table.columns.map((c) => c.name)).toEqual(['a', 'b', 'c']);
    // Every row malformed and skipped: nothing left, said with the first reason and its line.
    expect(() => readTable(file('a,b\n1,2,3\n4\n'), { ...defaults, onBadRow: 'skip' })).toThrow(/:2: every one of the file's 2 record\(s\) is malformed \(the first: 3 fields where the header has 2\)/);
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([['a', 'b']]), 'Data');
    const xlsx = join(dir, 'header-only.xlsx');
    XLSX.writeFile(book, xlsx);
    expect(() => readTable(xlsx, { ...defaults, sheet: null })).toThrow(/header-only\.xlsx \(sheet "Data"\): the sheet has a header but no records/);
  });
});

describe('encodings', () => {
  const text = 'name;city\nJosé;Zürich\n"Ça va";Köln\n';
  const expected = [['José', 'Zürich'], ['Ça va', 'Köln']];

  it('UTF-8 with and without BOM', () => {
    const plain = readCsv(file(text), defaults);
    expect(plain.encoding).toBe('utf-8');
    expect(plain.bom).toBe(false);
    const bom = readCsv(file('\uFEFF' + text), defaults);
    expect(bom.bom).toBe(true);
    expect(bom.table.columns[0]!.name).toBe('name');
    expect(values(file('\uFEFF' + text))).toEqual(expected);
  });

  it('UTF-16 LE and BE, with BOM and without', () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    expect(readCsv(file(le), defaults).encoding).toBe('utf-16le');
    expect(values(file(le))).toEqual(expected);
    const be = Buffer.from(text, 'utf16le').swap16();
    const beBom = Buffer.concat([Buffer.from([0xfe, 0xff]), be]);
    expect(readCsv(file(beBom), defaults).encoding).toBe('utf-16be');
    expect(values(file(beBom))).toEqual(expected);
    expect(readCsv(file(Buffer.from(text, 'utf16le')), defaults).encoding).toBe('utf-16le');
  });

  it('UTF-16 with an odd byte or half a surrogate pair is refused naming the file, not read with U+FFFD in a value', () => {
    const odd = Buffer.concat([Buffer.from('\ufeffa,b\n1,2', 'utf16le'), Buffer.from([0x41])]);
    expect(() => readCsv(file(odd), defaults)).toThrow(/^\S+\.csv: invalid UTF-16 in the bytes 0–17 \(an odd number of bytes, or half of a character pair\); the file is damaged or is not UTF-16$/);
    const half = Buffer.concat([Buffer.from('\ufeffa,b\n1,', 'utf16le'), Buffer.from([0x00, 0xd8]), Buffer.from('x\n', 'utf16le')]);
    expect(() => readCsv(file(half), defaults)).toThrow(/invalid UTF-16/);
    const be = Buffer.concat([Buffer.from('\ufeffa,b\n1,2\n', 'utf16le').swap16(), Buffer.from([0x00])]);
    expect(() => readCsv(file(be), defaults)).toThrow(/invalid UTF-16/);
  });

  it('Windows-1252 is detected when the bytes are not UTF-8', () => {
    const bytes = Buffer.from(text.replace('é', '\u00e9'), 'latin1');
    const result = readCsv(file(bytes), defaults);
    expect(result.encoding).toBe('windows-1252');
    expect(values(file(bytes))).toEqual(expected);
    const euro = Buffer.from([...Buffer.from('price\n'), 0x80, 0x0a]);
    expect(values(file(euro))).toEqual([['€']]);
  });

  it('a declared UTF-8 encoding that does not fit is an error naming the file, the line and the column', () => {
    expect(() => readCsv(file(Buffer.from('a\n\u00e9\n', 'latin1')), { ...defaults, encoding: 'utf-8' })).toThrow(/:2: the byte 0xE9 \(character 1 of the line\) is not UTF-8; is the file Windows-1252 or UTF-16\?/);
    // Far into a large file (past the reader's 4 MB chunks), after multi-byte characters on its line and a BOM.
    const lines = Array.from({ length: 300_000 }, (_, i) => `${i},Zürich,${'x'.repeat(i % 20)}`);
    const bad = Buffer.concat([Buffer.from('\ufeffid,town,note\n' + lines.join('\n') + '\n', 'utf8'), Buffer.from('300000,Genève ', 'utf8'), Buffer.from([0xff]), Buffer.from('\n')]);
    expect(bad.length).toBeGreaterThan(4 << 20);
    expect(() => readCsv(file(bad), { ...defaults, encoding: 'utf-8' })).toThrow(/:300002: the byte 0xFF \(character 15 of the line\) is not UTF-8/);
    // The byte order mark declares UTF-8 as the job would: no fall back to Windows-1252 (which read the mark as "ï»¿").
    expect(() => readCsv(file(bad), defaults)).toThrow(/:300002: the byte 0xFF \(character 15 of the line\) is not UTF-8/);
    // Old Mac line ends (a CR alone) are lines, as the tokenizer counts them.
    expect(() => readCsv(file(Buffer.from([...Buffer.from('a,b\r1,2\rx'), 0xe9, ...Buffer.from('y,3\r')])), { ...defaults, encoding: 'utf-8' })).toThrow(/:3: the byte 0xE9 \(character 2 of the line\)/);
  });
});

describe('delimiters, missing values and types', () => {
  it('sniffs comma, semicolon, tab and pipe, ignoring separators inside quotes', () => {
    expect(sniffDelimiter('a,b,c\n1,2,3\n')).toBe(',');
    expect(sniffDelimiter('a;b;c\n"1,5";2;3\n')).toBe(';');
    expect(sniffDelimiter('a\tb\n1\t2\n')).toBe('\t');
    expect(sniffDelimiter('a|b\n1|2\n')).toBe('|');
  });

  it('honours an override', () => {
    expect(values(file('a;b\n1;2\n'), { delimiter: ',' })).toEqual([['1;2']]);
  });

  it('declared missing tokens become missing; codes with leading zeros stay text', () => {
    const { table } = readCsv(file('zip,age,income\n01234,34,1.5\n?,NA,2\n10001,?,3e2\n'), { ...defaults, missing: ['', '?', 'NA'] });
    const [zip, age, income] = table.columns;
    expect(zip!.type).toBe('text');
    expect(zip!.missing).toBe(1);
    expect(age!.type).toBe('integer');
    expect(age!.missing).toBe(2);
    expect(income!.type).toBe('decimal');
    expect(zip!.dictionary).toContain('01234');
  });
});
