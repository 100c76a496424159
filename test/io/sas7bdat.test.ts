import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ImportedTable } from '../../src/io/input/import-types.js';
import { InputError } from '../../src/io/input/input-error.js';
import { readTable } from '../../src/io/input/read-table.js';
import { rdcDecompress, rleDecompress } from '../../src/io/input/sas7bdat-decompress.js';
import { sasNumber, sasNumberText } from '../../src/io/input/sas7bdat-reader.js';

/**
 * The fixtures (test/fixtures/sas/sas7bdat, see its README) are written by ReadStat 1.1.8 from
 * make-sas7bdat.c, derived from those by make-variants.py (RDC, big-endian), and one written by SAS
 * 9.4 (iris, from R's haven). Expectations are the values the generator put in, and what pandas
 * read from the same files (pandas-reading.json, made by check-with-pandas.py).
 */
const DIR = 'test/fixtures/sas/sas7bdat';
const fixture = (name: string): string => join(DIR, name);
const read = (path: string): ImportedTable => readTable(path, { missing: [''], onBadRow: 'error' });

function rows(imported: ImportedTable): string[][] {
  const { table } = imported;
  return Array.from({ length: table.rowCount }, (_, r) => table.columns.map((c) => c.dictionary[c.codes[r]!]!));
}

/** ISO text of a count of days or seconds since 1 January 1960, computed here independently of the reader. */
const SAS_EPOCH_MS = Date.UTC(1960, 0, 1);
const isoDay = (days: number): string => new Date(SAS_EPOCH_MS + days * 86_400_000).toISOString().slice(0, 10);
/** With its milliseconds when it has any (every value here is whole milliseconds): 1.5 s is 00:00:01.5, never 00:00:01. */
const isoSecond = (seconds: number): string => {
  const iso = new Date(SAS_EPOCH_MS + Math.round(seconds * 1000)).toISOString();
  const ms = iso.slice(20, 23).replace(/0+$/, '');
  return iso.slice(0, 19) + (ms ? `.${ms}` : '');
};

/** The people table as make-sas7bdat.c writes it (ages, special missing .A in income, dates before 1960). */
const PEOPLE_HEADER = ['id', 'age', 'region', 'visit', 'seen', 'household_income_chf', 'iso_day', 'stamp', 'note'];
const PEOPLE = [
  ['1', '34', 'Zürich', '2024-01-15', '2024-01-15T08:30:00', '4250.5', '1960-01-01', '1960-01-01T00:00:01.5', 'plain ascii'],
  ['2', '51', 'Genève', '2024-02-29', '2024-02-29T17:05:10', '', '1961-01-01', '1960-01-02T00:00:00', 'trailing blanks'],
  ['3', '', 'Zurich', '1999-12-31', '1999-12-31T23:59:59', '3100', '1949-12-31', '1959-12-31T00:00:00', 'café € 5'],
  ['4', '28', 'Basel', '1959-12-31', '1960-01-01T00:00:00', '2800.75', '', '2030-01-01T00:00:00', '@@@@ kkkk'],
  ['5', '45', '', '2023-03-01', '2023-03-01T12:00:00', '', '2020-01-01', '', 'xxxxxxxxxxxxxxxxxxxx'],
];
/** Which columns of the generated tables hold dates, as the generator's formats say. */
const DATE_COLUMNS: ReadonlyMap<string, 'date' | 'datetime'> = new Map([
  ['visit', 'date'],
  ['seen', 'datetime'],
  ['iso_day', 'date'],
  ['stamp', 'datetime'],
  ['day', 'date'],
]);

const PEOPLE_FILES = [
  ['people-64.sas7bdat', '64-bit, little-endian'],
  ['people-32.sas7bdat', '32-bit, little-endian'],
  ['people-64-rle.sas7bdat', '64-bit, RLE-compressed (COMPRESS=CHAR)'],
  ['people-32-rle.sas7bdat', '32-bit, RLE-compressed'],
  ['people-32-rdc.sas7bdat', '32-bit, RDC-compressed (COMPRESS=BINARY)'],
  ['people-64-be.sas7bdat', '64-bit, big-endian'],
  ['people-32-be.sas7bdat', '32-bit, big-endian'],
  ['people-64-wlatin1.sas7bdat', 'text in Windows-1252 (wlatin1)'],
] as const;

describe('SAS data sets (.sas7bdat)', () => {

  it('a character variable wider than SAS allows (32,767 bytes) is refused: compressed rows would make a small file claim gigabytes', () => {
    // 17 KB: one variable 16 MiB wide, two rows of about 8 KB of run-length codes each (make-crafted-16mib-char.mjs).
    expect(() => readTable('test/fixtures/sas/crafted-16mib-char.sas7bdat', { missing: [''], onBadRow: 'error' })).toThrow(
      /^crafted-16mib-char\.sas7bdat: variable 1 of the SAS data set has an impossible width 16777216; the file is damaged$/,
    );
  });
  for (const [name, what] of PEOPLE_FILES) {
    it(`${name} (${what}): numbers, text, missing and special missing values, dates, labels`, () => {
      const imported = read(fixture(name));
      expect(imported.format).toBe('sas7bdat');
      expect(imported.table.columns.map((c) => c.name)).toEqual(PEOPLE_HEADER);
      expect(rows(imported)).toEqual(PEOPLE);
      const variables = new Map((imported.variables ?? []).map((v) => [v.name, v]));
      expect(variables.get('age')).toMatchObject({ label: 'Age in years', declaredMissing: 1 });
      expect(variables.get('region')).toMatchObject({ label: 'Région de résidence', declaredMissing: 0 });
      // .A and . are both missing and both counted.
      expect(variables.get('household_income_chf')).toMatchObject({ label: 'Household income (CHF)', declaredMissing: 2 });
      expect(variables.get('visit')!.dates).toBe('date');
      expect(variables.get('seen')!.dates).toBe('datetime');
      expect(variables.get('iso_day')).toMatchObject({ dates: 'date', declaredMissing: 1 });
      expect(variables.get('stamp')).toMatchObject({ dates: 'datetime', declaredMissing: 1 });
      expect(variables.get('id')!.dates).toBeUndefined();
      expect(variables.get('id')!.label).toBeUndefined();
    });
  }

  for (const name of ['rows-64.sas7bdat', 'rows-32-rle.sas7bdat', 'rows-64-rle.sas7bdat', 'rows-32-rdc.sas7bdat']) {
    it(`${name}: 700 rows over many pages, each value a formula of its row number`, () => {
      const imported = read(fixture(name));
      const expected = Array.from({ length: 700 }, (_, i) => {
        const r = i + 1;
        return [String(r), r % 7 === 0 ? '' : String(r / 2), `c${r % 37}`, isoDay(20000 + r)];
      });
      expect(rows(imported)).toEqual(expected);
      expect(imported.variables!.map((v) => v.declaredMissing)).toEqual([0, 100, 0, 0]);
    });
  }

  it('iris as SAS 9.4 wrote it (32-bit layout with padding, a mix page, wlatin1): the data R ships as iris', () => {
    const imported = read(fixture('iris-sas.sas7bdat'));
    expect(imported.table.columns.map((c) => c.name)).toEqual(['Sepal_Length', 'Sepal_Width', 'Petal_Length', 'Petal_Width', 'Species']);
    const values = rows(imported);
    expect(values).toHaveLength(150);
    expect(values[0]).toEqual(['5.1', '3.5', '1.4', '0.2', 'setosa']);
    // The file stores Species in 6 bytes ($6.): SAS cut the names, pandas reads the same.
    expect(values[149]).toEqual(['5.9', '3', '5.1', '1.8', 'virgin']);
    // Column sums of R's iris, rounded to the data's one decimal.
    const sum = (j: number): number => Math.round(values.reduce((s, row) => s + Number(row[j]), 0) * 10) / 10;
    expect([0, 1, 2, 3].map(sum)).toEqual([876.5, 458.6, 563.7, 179.9]);
    for (const species of ['setosa', 'versic', 'virgin']) expect(values.filter((row) => row[4] === species)).toHaveLength(50);
  });

  describe('agrees with pandas, value by value, on every file pandas reads', () => {
    const reading = JSON.parse(readFileSync(fixture('pandas-reading.json'), 'utf8')) as {
      files: Record<string, { columns?: { name: string; label: string }[]; rows?: (number | string | null)[][]; error?: string }>;
    };
    for (const [name, pandas] of Object.entries(reading.files)) {
      if (!pandas.rows) continue;
      it(name, () => {
        const imported = read(fixture(name));
        const names = imported.table.columns.map((c) => c.name);
        // pandas 1.5 reads a column text no further than the size it declares, which ReadStat
        // writes 12 bytes short in 64-bit files: a name there is '' to pandas (see the README).
        expect(pandas.columns!.map((c, j) => c.name || names[j])).toEqual(names);
        expect(imported.variables!.map((v) => v.label ?? '')).toEqual(pandas.columns!.map((c) => c.label));
        const expected = pandas.rows!.map((row) =>
          row.map((value, j) => {
            if (value === null) return '';
            if (typeof value === 'string') return value;
            const kind = DATE_COLUMNS.get(names[j]!);
            return kind === 'date' ? isoDay(value) : kind === 'datetime' ? isoSecond(value) : String(value);
          }),
        );
        expect(rows(imported)).toEqual(expected);
      });
    }
  });

  it('is known by its first bytes whatever its name', () => {
    const dir = mkdtempSync(join(tmpdir(), 'custos-sas7bdat-'));
    copyFileSync(fixture('people-32.sas7bdat'), join(dir, 'export.csv'));
    const imported = read(join(dir, 'export.csv'));
    expect(imported.format).toBe('sas7bdat');
    expect(rows(imported)).toEqual(PEOPLE);
  });

  describe('encodings: the header byte decides; what cannot be decoded is refused by name', () => {
    const withEncoding = (code: number): string => {
      const dir = mkdtempSync(join(tmpdir(), 'custos-sas7bdat-'));
      const bytes = readFileSync(fixture('people-64-wlatin1.sas7bdat'));
      bytes[70] = code;
      writeFileSync(join(dir, 'coded.sas7bdat'), bytes);
      return join(dir, 'coded.sas7bdat');
    };
    it('code 0 (not stated) reads Windows-1252 text as the files without an encoding do', () => {
      expect(rows(read(withEncoding(0)))).toEqual(PEOPLE);
    });
    it('ISO-8859-15 (code 40) decodes the same bytes its own way', () => {
      // é and ü are the same in both; 0x80, € in Windows-1252, is a control character in Latin-9.
      const values = rows(read(withEncoding(40)));
      expect(values[0]![2]).toBe('Zürich');
      expect(values[2]![8]).toBe('café \u0080 5');
    });
    it('DOS code page 437, EBCDIC and unknown codes are refused naming them', () => {
      expect(() => read(withEncoding(41))).toThrow(/coded\.sas7bdat: .*CP437 \(SAS code 41\), which Custos cannot decode/);
      expect(() => read(withEncoding(90))).toThrow(/coded\.sas7bdat: .*EBCDIC 870/);
      expect(() => read(withEncoding(250))).toThrow(/coded\.sas7bdat: .*SAS numbers 250, which Custos does not know/);
    });
  });

  describe('damaged files are refused naming the file', () => {
    const damaged = (name: string, change: (bytes: Buffer) => Buffer): string => {
      const dir = mkdtempSync(join(tmpdir(), 'custos-sas7bdat-'));
      writeFileSync(join(dir, 'bad.sas7bdat'), change(Buffer.from(readFileSync(fixture(name)))));
      return join(dir, 'bad.sas7bdat');
    };
    it('a file cut short', () => {
      for (const name of ['people-64.sas7bdat', 'rows-32-rle.sas7bdat', 'iris-sas.sas7bdat']) {
        const path = damaged(name, (b) => b.subarray(0, b.length - 700));
        expect(() => read(path)).toThrow(InputError);
        expect(() => read(path)).toThrow(/bad\.sas7bdat: .*truncated/);
      }
    });
    it('a header only', () => {
      expect(() => read(damaged('people-32.sas7bdat', (b) => b.subarray(0, 200)))).toThrow(/bad\.sas7bdat: .*truncated/);
    });
    it('a page holding observations deleted in SAS (page type 384: data with deleted rows)', () => {
      // rows-64: 64-bit, 8192-byte header, 4096-byte pages; the last page is a data page.
      const path = damaged('rows-64.sas7bdat', (b) => {
        const last = b.length - 4096;
        expect(b.readUInt16LE(last + 32)).toBe(0x0100);
        b.writeUInt16LE(0x0180, last + 32);
        return b;
      });
      expect(() => read(path)).toThrow(/bad\.sas7bdat: .*observations marked deleted/);
    });
    it('an unknown byte order', () => {
      expect(() => read(damaged('people-32.sas7bdat', (b) => ((b[37] = 7), b)))).toThrow(/bad\.sas7bdat: .*byte order/);
    });
  });

  describe('RLE (COMPRESS=CHAR) as Shotwell and Cummins describe it', () => {
    const bytes = (...parts: (number | string)[]): Uint8Array => Uint8Array.from(parts.flatMap((p) => (typeof p === 'string' ? [...Buffer.from(p, 'latin1')] : [p])));
    const letters = 'abcdefghijklmnopqrstuvwxyzABCDEFGH';
    it('their example 1: Copy1, InsertZero2, Copy1, Insert@2, Copy33', () => {
      const input = bytes(0x87, 'ABCDEFGH', 0xf2, 0x8a, '123456789AB', 0xd0, 0xa1, letters);
      expect(Buffer.from(rleDecompress(input, 59)).toString('latin1')).toBe(`ABCDEFGH${"\0".repeat(4)}123456789AB@@${letters}`);
    });
    it('their example 2: Copy1, InsertByte3, Copy33', () => {
      const tail = `${letters}IJKL`;
      const input = bytes(0x87, 'ABCDEFGH', 0xc1, 0x99, 0xa5, tail);
      expect(Buffer.from(rleDecompress(input, 50))).toEqual(Buffer.concat([Buffer.from('ABCDEFGH'), Buffer.alloc(4, 0x99), Buffer.from(tail)]));
    });
    it('the long commands: Copy64, InsertByte18, Insert@17, InsertBlank17, InsertZero17, Copy17, Copy49, InsertBlank2', () => {
      const copy64 = 'x'.repeat(66);
      const input = bytes(0x00, 2, copy64, 0x40, 2, 0x2a, 0x50, 1, 0x60, 0, 0x70, 3, 0x91, 'y'.repeat(18), 0xb0, 'z'.repeat(49), 0xe1);
      const expected = `${copy64}${'*'.repeat(20)}${'@'.repeat(18)}${' '.repeat(17)}${'\0'.repeat(20)}${'y'.repeat(18)}${'z'.repeat(49)}   `;
      expect(Buffer.from(rleDecompress(input, expected.length)).toString('latin1')).toBe(expected);
    });
    it('refuses data longer or shorter than the row, a copy past its input, an unknown command', () => {
      expect(() => rleDecompress(bytes(0x83, 'abcd'), 3)).toThrow(RangeError);
      expect(() => rleDecompress(bytes(0x83, 'abcd'), 5)).toThrow(RangeError);
      expect(() => rleDecompress(bytes(0x87, 'ab'), 8)).toThrow(RangeError);
      expect(() => rleDecompress(bytes(0x10), 8)).toThrow(/unknown RLE command 1/);
    });
  });

  describe('RDC (COMPRESS=BINARY) as Ross describes it', () => {
    it('literals, a short run, short copies (one overlapping itself)', () => {
      // Items: a, a run of 5 b, x, y, z: control bits 0100 0000 0000 0000.
      expect(Buffer.from(rdcDecompress(Uint8Array.of(0x40, 0x00, 0x61, 0x02, 0x62, 0x78, 0x79, 0x7a), 9)).toString('latin1')).toBe('abbbbbxyz');
      // Then a copy of 3 from 3 back (item 6: bit 0x0400), and one of 9 from 3 back, overlapping (item 7: 0x0200).
      const input = Uint8Array.of(0x46, 0x00, 0x61, 0x02, 0x62, 0x78, 0x79, 0x7a, 0x30, 0x00, 0x90, 0x00);
      expect(Buffer.from(rdcDecompress(input, 21)).toString('latin1')).toBe('abbbbbxyzxyzxyzxyzxyz');
    });
    it('a long run and a long copy', () => {
      // 16 literals, then a control word 1100…: a run of 19 + 1 + (1 << 4) = 36 q, then a copy of
      // 4 + 16 = 20 bytes from 1 + 3 + (3 << 4) = 52 back, the start of the row.
      const input = Uint8Array.of(0x00, 0x00, ...Buffer.from('abcdefghijklmnop'), 0xc0, 0x00, 0x11, 0x01, 0x71, 0x21, 0x03, 0x04);
      const expected = `abcdefghijklmnop${'q'.repeat(36)}abcdefghijklmnopqqqq`;
      expect(Buffer.from(rdcDecompress(input, expected.length)).toString('latin1')).toBe(expected);
    });
    it('refuses a copy from before the row, data longer or shorter than the row', () => {
      expect(() => rdcDecompress(Uint8Array.of(0x40, 0x00, 0x61, 0x30, 0x00), 4)).toThrow(/before the start/);
      expect(() => rdcDecompress(Uint8Array.of(0x00, 0x00, 0x61, 0x62), 1)).toThrow(RangeError);
      expect(() => rdcDecompress(Uint8Array.of(0x00, 0x00, 0x61, 0x62), 3)).toThrow(RangeError);
    });
  });

  describe('numbers shorter than 8 bytes (LENGTH 3–7)', () => {
    it('keep the high bytes of the double, in the file byte order', () => {
      expect(sasNumber(Uint8Array.of(0x00, 0xf0, 0x3f), true)).toBe(1);
      expect(sasNumber(Uint8Array.of(0x3f, 0xf0, 0x00), false)).toBe(1);
      expect(sasNumber(Uint8Array.of(0x00, 0x00, 0x20, 0xc0), true)).toBe(-8);
    });
    it('in a file: a column declared shorter is read from the high bytes, in either byte order', () => {
      // The id column's attribute vector (offset, width) patched to its double's 4 or 3 high bytes:
      // the values 1–5 need no more. In a little-endian row they are the last bytes, else the first.
      for (const [name, signature, little] of [
        ['people-64.sas7bdat', 'fcffffffffffffff', true],
        ['people-64-be.sas7bdat', 'fffffffffffffffc', false],
      ] as const) {
        for (const width of [4, 3]) {
          const dir = mkdtempSync(join(tmpdir(), 'custos-sas7bdat-'));
          const bytes = Buffer.from(readFileSync(fixture(name)));
          const vector = bytes.indexOf(Buffer.from(signature, 'hex'), 8192) + 16;
          const offset = little ? bytes.readBigUInt64LE(vector) : bytes.readBigUInt64BE(vector);
          expect(offset).toBe(0n);
          if (little) bytes.writeBigUInt64LE(BigInt(8 - width), vector);
          if (little) bytes.writeUInt32LE(width, vector + 8);
          else bytes.writeUInt32BE(width, vector + 8);
          writeFileSync(join(dir, 'short.sas7bdat'), bytes);
          expect(rows(read(join(dir, 'short.sas7bdat'))).map((row) => row[0])).toEqual(['1', '2', '3', '4', '5']);
        }
      }
    });
    it('are shown to the precision their length keeps, integers exactly', () => {
      // 0.1 cut to 4 bytes is 0.09999990463256836: a LENGTH 4 number carries about 6 digits.
      const cut = sasNumber(Uint8Array.of(0x3f, 0xb9, 0x99, 0x99), false);
      expect(cut).not.toBe(0.1);
      expect(sasNumberText(cut, 4)).toBe('0.1');
      expect(sasNumberText(8191, 3)).toBe('8191');
      expect(sasNumberText(0.1, 8)).toBe('0.1');
      expect(sasNumberText(9007199254740991, 8)).toBe('9007199254740991');
    });
    it('every SAS missing value is NaN: ., .A–.Z, ._', () => {
      // SAS stores FF FF then the complement of a code (1 for ., 2–27 for .A–.Z, 0 for ._), as ReadStat reads them.
      for (const code of [1, 2, 27, 0]) {
        expect(sasNumber(Uint8Array.of(0xff, 0xff, 0xff - code, 0, 0, 0, 0, 0), false)).toBeNaN();
        expect(sasNumber(Uint8Array.of(0, 0, 0, 0, 0, 0xff - code, 0xff, 0xff), true)).toBeNaN();
      }
    });
  });
});
