import fc from 'fast-check';
import { compactReleaseTable } from '../../src/io/output/release-table.js';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/io/input/input-error.js';
import { readTable } from '../../src/io/input/read-table.js';
import { writeDta } from '../../src/io/output/dta-writer.js';
import { writeSav } from '../../src/io/output/sav-writer.js';
import { hostileWorkbook } from './hostile-workbook.js';

const FIXTURES = [
  'test/fixtures/spss/people-plain.sav',
  'test/fixtures/spss/people-bytecode.sav',
  'test/fixtures/spss/people.zsav',
  'test/fixtures/stata/people-114.dta',
  'test/fixtures/stata/people-117.dta',
  'test/fixtures/stata/people-118.dta',
  'test/fixtures/stata/people-119.dta',
  'test/fixtures/sas/people-v5.xpt',
  'test/fixtures/sas/people-v8.xpt',
  'test/fixtures/sas/sas7bdat/people-64.sas7bdat',
  'test/fixtures/sas/sas7bdat/people-32-rle.sas7bdat',
  'test/fixtures/sas/sas7bdat/people-32-rdc.sas7bdat',
  'test/fixtures/sas/sas7bdat/people-64-be.sas7bdat',
  'test/fixtures/sas/sas7bdat/iris-sas.sas7bdat',
  'test/fixtures/parquet/types-uncompressed.parquet',
  'test/fixtures/parquet/types-snappy.parquet',
  'test/fixtures/parquet/types-gzip.parquet',
  'test/fixtures/parquet/types-zstd.parquet',
  'test/fixtures/parquet/types-brotli.parquet',
  'test/fixtures/parquet/types-lz4_raw.parquet',
  'test/fixtures/parquet/categories.parquet',
  'test/fixtures/parquet/categories-v2.parquet',
  'test/fixtures/parquet/nested.parquet',
  'test/fixtures/parquet/arrow-rs.parquet',
  // Sub-second date-times and values beginning with U+FEFF (R's haven, PSPP, pyarrow).
  'test/fixtures/subsecond-bom/subsecond-bom.sav',
  'test/fixtures/subsecond-bom/subsecond-pspp.sav',
  'test/fixtures/subsecond-bom/subsecond-bom.dta',
  'test/fixtures/subsecond-bom/subsecond-bom.xpt',
  'test/fixtures/subsecond-bom/subsecond-bom.parquet',
];

/** More rows than a fixture holds would mean a damaged count was believed (the Parquet categories hold 5,000). */
const maxRows = (fixture: string): number => (fixture.includes('categories') ? 5000 : fixture.includes('arrow-rs') ? 1500 : 1000);

/**
 * Files of statistical packages come from elsewhere: damaged or crafted, a reader must either
 * read them or refuse them naming the file (an InputError, exit 3), never crash, hang or allocate
 * without bound. Each fixture is damaged at random (bytes overwritten, the file cut short) with a
 * fixed seed; a hang fails the test by its time limit.
 */
describe('damaged SPSS, Stata, SAS and Parquet files are read or refused, never crash or hang', () => {
  const dir = mkdtempSync(join(tmpdir(), 'custos-fuzz-'));
  for (const fixture of FIXTURES) {
    it(fixture, () => {
      const original = readFileSync(fixture);
      const path = join(dir, fixture.split('/').pop()!);
      fc.assert(
        fc.property(
          fc.array(fc.record({ at: fc.nat(original.length - 1), byte: fc.integer({ min: 0, max: 255 }) }), { minLength: 1, maxLength: 8 }),
          fc.option(fc.nat(original.length), { nil: undefined }),
          (edits, cut) => {
            const bytes = Buffer.from(original);
            for (const { at, byte } of edits) bytes[at] = byte;
            writeFileSync(path, cut === undefined ? bytes : bytes.subarray(0, cut));
            try {
              const imported = readTable(path, { missing: [''], onBadRow: 'error' });
              expect(imported.table.rowCount).toBeLessThanOrEqual(maxRows(fixture));
            } catch (error) {
              if (!(error instanceof InputError)) throw error;
              expect(error.message).toMatch(/\S/);
            }
          },
        ),
        { numRuns: 150, seed: 20261124 },
      );
    }, 60_000);
  }
});

/**
 * A SAS data set is mostly zero padding, where random damage lands harmlessly: here the damage
 * falls on the bytes that carry something (the non-zero ones: header fields, page headers,
 * subheader pointers, subheaders, rows), where a reader trusts offsets, lengths and counts.
 */
describe('SAS data sets damaged where their structure is', () => {
  const dir = mkdtempSync(join(tmpdir(), 'custos-fuzz-sas7bdat-'));
  for (const fixture of FIXTURES.filter((f) => f.endsWith('.sas7bdat'))) {
    it(fixture, () => {
      const original = readFileSync(fixture);
      const meaningful = [...original.keys()].filter((i) => original[i] !== 0);
      const path = join(dir, fixture.split('/').pop()!);
      fc.assert(
        fc.property(
          fc.array(fc.record({ at: fc.nat(meaningful.length - 1), byte: fc.integer({ min: 0, max: 255 }) }), { minLength: 1, maxLength: 4 }),
          (edits) => {
            const bytes = Buffer.from(original);
            for (const { at, byte } of edits) bytes[meaningful[at]!] = byte;
            writeFileSync(path, bytes);
            try {
              const imported = readTable(path, { missing: [''], onBadRow: 'error' });
              expect(imported.table.rowCount).toBeLessThanOrEqual(1000);
            } catch (error) {
              if (!(error instanceof InputError)) throw error;
              expect(error.message).toMatch(/\S/);
            }
          },
        ),
        { numRuns: 300, seed: 20261124 },
      );
    }, 60_000);
  }
});

/**
 * A workbook's string cells hold indexes into its shared strings (5 here): any text there is either
 * an index below 5, read as that string, or refused as an InputError naming the cell; never a
 * crash, never another string (parseInt would read "1e3" as 1).
 */
describe('workbooks with any shared-string index', () => {
  const dir = mkdtempSync(join(tmpdir(), 'custos-fuzz-sst-'));
  const STRINGS = ['name', 'town', 'Ann', 'Bern', 'Chur'];
  it('read the indexed string or are refused naming the cell', () => {
    const index = fc.oneof(
      fc.nat(8).map(String),
      fc.integer({ min: -3, max: 2 ** 40 }).map(String),
      fc.constantFrom('__proto__', 'constructor', 'toString', '1e3', '1.5', '0x1', ' 2', '02', '', '&#49;', 'NaN', 'Infinity'),
      fc.string({ maxLength: 6 }).map((t) => t.replace(/[<&]/g, '')),
    );
    const path = join(dir, 'book.xlsx');
    fc.assert(
      fc.property(index, (text) => {
        writeFileSync(path, hostileWorkbook(text));
        const expected = /^\s*\d+\s*$/.test(text) && Number(text) < STRINGS.length ? STRINGS[Number(text)] : text === '&#49;' ? 'town' : text === '' ? '' : undefined;
        try {
          const town = readTable(path, { missing: [''], onBadRow: 'error' }).table.columns[1]!;
          expect(town.dictionary[town.codes[5]!]).toBe(expected);
        } catch (error) {
          if (!(error instanceof InputError)) throw error;
          expect(expected).toBeUndefined();
          expect(error.message).toMatch(/^book\.xlsx: cell Sheet1!B7 /);
        }
      }),
      { numRuns: 200, seed: 20261127 },
    );
  }, 60_000);
});

/**
 * Values the readers once changed, through the SPSS and Stata writers and back: text beginning
 * (or made) of U+FEFF, and date-times with any fraction of a second a double holds, from 1900 to 2100.
 */
describe('values beginning with U+FEFF and sub-second date-times survive a release to .sav and .dta', () => {
  const dir = mkdtempSync(join(tmpdir(), 'custos-fuzz-roundtrip-'));
  const text = fc.tuple(fc.constantFrom('\ufeff', '\ufeff\ufeff', ''), fc.string({ minLength: 1, maxLength: 8 }).filter((t) => t.trim() !== '' && !t.includes('\0'))).map(([bom, rest]) => bom + rest);
  // Whole milliseconds, or finer: a fraction of up to 6 digits.
  const stamp = fc.tuple(fc.integer({ min: Date.UTC(1900, 0, 1) / 1000, max: Date.UTC(2100, 0, 1) / 1000 }), fc.nat(999_999), fc.integer({ min: 0, max: 6 })).map(([seconds, micro, digits]) => {
    const fraction = String(micro).padStart(6, '0').slice(0, digits).replace(/0+$/, '');
    return new Date(seconds * 1000).toISOString().slice(0, 19) + (fraction ? `.${fraction}` : '');
  });
  let written = 0;
  for (const [format, write] of [['sav', writeSav], ['dta', writeDta]] as const) {
    it(`.${format}`, () => {
      fc.assert(
        fc.property(fc.array(fc.tuple(text, stamp), { minLength: 1, maxLength: 6 }), (rows) => {
          const column = (name: string, values: string[]) => {
            const dictionary = [...new Set(values)];
            return { name, dictionary, codes: Uint32Array.from(values, (v) => dictionary.indexOf(v)), via: null, numeric: false };
          };
          const path = join(dir, `release-${++written}.${format}`);
          const metadata = { name: 'seen', valueLabels: [], declaredMissing: 0, dates: 'datetime' as const };
          write(path, compactReleaseTable({ rowCount: rows.length, columns: [column('note', rows.map((r) => r[0])), column('seen', rows.map((r) => r[1]))] }), (c) => (c === 'seen' ? metadata : undefined), new Date(Date.UTC(2026, 10, 27)));
          const back = readTable(path, { missing: [''], onBadRow: 'error' }).table;
          const values = (j: number) => Array.from(back.columns[j]!.codes, (c) => back.columns[j]!.dictionary[c]);
          // SPSS pads strings with blanks, so a value's own trailing blanks do not come back; Stata pads with NULs.
          expect(values(0)).toEqual(rows.map((r) => (format === 'sav' ? r[0].replace(/[ ]+$/, '') : r[0])));
          expect(values(1)).toEqual(rows.map((r) => r[1]));
        }),
        { numRuns: 150, seed: 20261127 },
      );
    }, 60_000);
  }
});
