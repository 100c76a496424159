import fc from 'fast-check';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/io/input/input-error.js';
import { readTable } from '../../src/io/input/read-table.js';

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
