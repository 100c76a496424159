/**
 * Values of statistical files kept exactly: a date-time's fraction of a second (12:00:00.5 is not
 * 12:00:00) and a value's leading U+FEFF (a character of the value; a byte order mark belongs only
 * at the start of a text file). Fixtures by R's haven, PSPP and pyarrow (test/fixtures/subsecond-bom).
 */
import fc from 'fast-check';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dateTimeCount, dateTimeText, dayText, SAS_CLOCK, SPSS_CLOCK, STATA_CLOCK } from '../../src/io/input/date-time-text.js';
import type { ImportedTable } from '../../src/io/input/import-types.js';
import { readTable } from '../../src/io/input/read-table.js';
import { writeDta } from '../../src/io/output/dta-writer.js';
import { compactReleaseTable, type ReleaseTable } from '../../src/io/output/release-table.js';
import { writeSav } from '../../src/io/output/sav-writer.js';

const options = { missing: [''], onBadRow: 'error' as const };
const dir = 'test/fixtures/subsecond-bom';
const CREATED = new Date(Date.UTC(2026, 10, 27, 12, 0, 0));

function column(imported: ImportedTable, name: string): string[] {
  const c = imported.table.columns.find((col) => col.name === name)!;
  return Array.from(c.codes, (code) => c.dictionary[code]!);
}

/** What make-fixtures.R wrote: five distinct instants within a second, one before 1960. */
const STAMPS = ['2024-05-01T12:00:00', '2024-05-01T12:00:00.5', '2024-05-01T12:00:00.25', '2024-05-01T12:00:00.125', '2024-05-01T11:59:59.75', '1959-12-31T23:59:59.5'];
const NAMES = ['\ufeffA', 'A', '\ufeff', 'B\ufeff', '\ufeff\ufeffC', 'C'];

describe('date-times keep their fractions of a second, values their leading U+FEFF', () => {
  for (const file of ['subsecond-bom.sav', 'subsecond-bom.dta', 'subsecond-bom.xpt']) {
    it(`${file} (R's haven)`, () => {
      const imported = readTable(join(dir, file), options);
      expect(column(imported, 'stamp')).toEqual(STAMPS);
      expect(column(imported, 'name')).toEqual(NAMES);
    });
  }

  it("PSPP's date-times typed with tenths and thousandths read as typed", () => {
    const imported = readTable(join(dir, 'subsecond-pspp.sav'), options);
    // PSPP stores the double nearest 13933944000.1 (not a finite binary fraction): its shortest decimal is the text typed.
    expect(column(imported, 'stamp')).toEqual(['2024-05-01T12:00:00', '2024-05-01T12:00:00.1', '2024-05-01T12:00:00.5', '2024-05-01T12:00:00.001', '2024-05-01T11:59:59.999']);
  });

  it('Parquet (pyarrow): U+FEFF kept in plain and dictionary-encoded text; timestamps to the unit', () => {
    const imported = readTable(join(dir, 'subsecond-bom.parquet'), options);
    expect(column(imported, 'name')).toEqual(NAMES);
    expect(column(imported, 'category')).toEqual(NAMES);
    expect(column(imported, 'stamp_us')).toEqual(['2024-05-01T12:00:00', '2024-05-01T12:00:00.5', '2024-05-01T12:00:00.25', '2024-05-01T12:00:00.000001', '2024-05-01T12:00:00.999999', '2024-05-01T12:00:00.1']);
    expect(column(imported, 'stamp_ns')[3]).toBe('2024-05-01T12:00:00.000001007');
  });
});

describe('a release of sub-second date-times round-trips through the SPSS and Stata writers', () => {
  const released = (imported: ImportedTable, extra: string[] = []): ReleaseTable => ({
    rowCount: imported.table.rowCount + extra.length,
    columns: imported.table.columns.map((c) => {
      const values = [...Array.from(c.codes, (code) => c.dictionary[code]!), ...(c.name === 'stamp' ? extra : extra.map(() => c.dictionary[c.codes[0]!]!))];
      const dictionary = [...new Set(values)];
      return { name: c.name, dictionary, codes: Uint32Array.from(values, (v) => dictionary.indexOf(v)), via: null, numeric: c.name === 'id' };
    }),
  });
  const metadataOf = (imported: ImportedTable) => (name: string) => imported.variables?.find((v) => v.name === name);

  for (const [format, write] of [['sav', writeSav], ['dta', writeDta]] as const) {
    it(`.${format}: each fraction written as a date-time and read back as the same text`, () => {
      const imported = readTable(join(dir, `subsecond-bom.${format}`), options);
      const path = join(mkdtempSync(join(tmpdir(), 'custos-subsecond-')), `release.${format}`);
      write(path, compactReleaseTable(released(imported)), metadataOf(imported), CREATED);
      const back = readTable(path, options);
      expect(column(back, 'stamp')).toEqual(STAMPS);
      expect(column(back, 'name')).toEqual(NAMES);
      expect(back.variables?.find((v) => v.name === 'stamp')?.dates).toBe('datetime');
    });

    it(`.${format}: a fraction finer than the format's double holds keeps the column as text, never rounded`, () => {
      const imported = readTable(join(dir, `subsecond-bom.${format}`), options);
      const path = join(mkdtempSync(join(tmpdir(), 'custos-subsecond-')), `release.${format}`);
      const fine = '2024-05-01T12:00:00.1234567891';
      write(path, compactReleaseTable(released(imported, [fine])), metadataOf(imported), CREATED);
      const back = readTable(path, options);
      expect(column(back, 'stamp')).toEqual([...STAMPS, fine]);
      expect(back.variables?.find((v) => v.name === 'stamp')?.dates).toBeUndefined();
    });
  }
});

describe('date-time text of a double and back', () => {
  const clocks = { SPSS: SPSS_CLOCK, Stata: STATA_CLOCK, SAS: SAS_CLOCK };
  for (const [name, clock] of Object.entries(clocks)) {
    it(`${name}: distinct doubles give distinct texts, and each text gives its double back`, () => {
      // Counts from 1900 to 2100 in the clock's unit, with arbitrary fractions.
      const scale = 10 ** clock.unitDigits;
      const around = clock.epochSeconds * scale;
      fc.assert(
        fc.property(fc.double({ min: around - 2e9 * scale, max: around + 4e9 * scale, noNaN: true }), fc.integer({ min: 1, max: 2 ** 20 }), (count, step) => {
          const text = dateTimeText(count, clock)!;
          expect(text).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d*[1-9])?$/);
          expect(dateTimeCount(text, clock)).toBe(count);
          const other = count + step * Math.abs(count) * Number.EPSILON;
          if (other !== count) expect(dateTimeText(other, clock)).not.toBe(text);
        }),
        { numRuns: 500, seed: 20261127 },
      );
    });
  }

  it('fractions as people write them; whole seconds without a point', () => {
    expect(dateTimeText(13933944000.5, SPSS_CLOCK)).toBe('2024-05-01T12:00:00.5');
    expect(dateTimeText(13933944000, SPSS_CLOCK)).toBe('2024-05-01T12:00:00');
    expect(dateTimeText(13933944000.1, SPSS_CLOCK)).toBe('2024-05-01T12:00:00.1');
    // Stata counts milliseconds: 1 ms before its epoch.
    expect(dateTimeText(-1, STATA_CLOCK)).toBe('1959-12-31T23:59:59.999');
    expect(dateTimeText(0.5, STATA_CLOCK)).toBe('1960-01-01T00:00:00.0005');
    expect(dateTimeCount('1960-01-01T00:00:00.0005', STATA_CLOCK)).toBe(0.5);
    expect(dateTimeCount('2024-05-01T12:00:00.500', SPSS_CLOCK)).toBeUndefined();
    expect(dateTimeCount('2021-02-30T12:00:00', SPSS_CLOCK)).toBeUndefined();
  });

  it('a date format over a time of day keeps the time (Stata %td, SAS dates)', () => {
    expect(dayText(3653, 3653)).toBe('1970-01-01');
    expect(dayText(3653.5, 3653)).toBe('1970-01-01T12:00:00');
    expect(dayText(3652.75, 3653)).toBe('1969-12-31T18:00:00');
  });
});
