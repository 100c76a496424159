import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { uniformInt } from '../../src/common/random/draws.js';
import { SeededTestRandomSource } from '../../src/common/random/source.js';
import { compactReleaseTable, type ReleaseColumn } from '../../src/io/output/release-table.js';
import { CellTooLongError, deflateTableSheets, writeXlsx, type ExtraSheet } from '../../src/io/output/xlsx-writer.js';
import type { CompactRelease } from '../../src/jobs/release-writers.js';
import { startWorkbookSheets } from '../../src/jobs/workbook-sheets-helper.js';

const WORKER = pathToFileURL(resolve('dist/cli/job-worker.mjs'));
const dir = mkdtempSync(join(tmpdir(), 'custos-workbook-sheets-'));
const WHEN = new Date(Date.UTC(2026, 10, 28, 12));

/** Released rows pointing into an input of `inputRows` rows (a sample with repeats), and a column of their own. */
function releases(seed: number, inputRows: number, released: number): CompactRelease[] {
  const random = new SeededTestRandomSource(seed);
  const via = Uint32Array.from({ length: released }, () => uniformInt(random, inputRows));
  const input = (name: string, values: readonly string[], numeric = false): ReleaseColumn => ({
    name,
    dictionary: ['', ...values],
    codes: Uint32Array.from({ length: inputRows }, () => uniformInt(random, values.length + 1)),
    via,
    numeric,
  });
  const own: ReleaseColumn = { name: 'sensitive', dictionary: ['x', 'y', 'z & <w>'], codes: Uint32Array.from({ length: released }, () => uniformInt(random, 3)), via: null, numeric: false };
  const table = compactReleaseTable({ rowCount: released, columns: [input('region', ['North', 'South', 'Ōsaka']), input('age', ['17', '42', '89'], true), own] });
  const second = compactReleaseTable({ rowCount: 5, columns: [input('other', ['a', 'b'])].map((c) => ({ ...c, via: via.subarray(0, 5) })) });
  return [
    { stem: 'release', sheetName: 'Release', table },
    { stem: 'st', sheetName: 'Second', table: second },
  ];
}

const REPORT: ExtraSheet[] = [{ name: 'Report', rows: [['field', 'value'], ['rows', 2500], ['checksum', 'abc']] }];

describe('the workbook’s table sheets on a helper thread', () => {
  it('give the same workbook, byte for byte, as writing every sheet on this thread, split over sheets or not', async () => {
    for (const maxRows of [1_048_575, 700]) {
      const tables = releases(3, 900, 2500);
      const named = tables.map((r) => ({ name: r.sheetName, table: r.table }));
      const here = join(dir, `here-${maxRows}.xlsx`);
      const helped = join(dir, `helped-${maxRows}.xlsx`);
      await writeXlsx(here, named, REPORT, maxRows, WHEN);
      const pending = startWorkbookSheets(WORKER, tables, maxRows)!;
      expect(pending).toBeDefined();
      try {
        const written = await writeXlsx(helped, named, REPORT, maxRows, WHEN, pending.parts);
        expect(written.sheets).toEqual(maxRows === 700 ? ['Release 1', 'Release 2', 'Release 3', 'Release 4', 'Second'] : ['Release', 'Second']);
      } finally {
        pending.close();
      }
      expect(readFileSync(helped).equals(readFileSync(here))).toBe(true);
    }
  });

  it('are the sheets deflateTableSheets makes here, whatever descriptive sheets follow them', async () => {
    const tables = releases(9, 50, 120);
    const named = tables.map((r) => ({ name: r.sheetName, table: r.table }));
    const withReport = join(dir, 'with-report.xlsx');
    const withOther = join(dir, 'with-other.xlsx');
    await writeXlsx(withReport, named, REPORT, 1_048_575, WHEN, deflateTableSheets(named));
    await writeXlsx(withOther, named, REPORT, 1_048_575, WHEN);
    expect(readFileSync(withReport).equals(readFileSync(withOther))).toBe(true);
    // A different report changes the shared strings, not the table sheets' parts.
    const other: ExtraSheet[] = [{ name: 'Report', rows: [['something else entirely', 1]] }];
    const a = join(dir, 'other-a.xlsx');
    const b = join(dir, 'other-b.xlsx');
    await writeXlsx(a, named, other, 1_048_575, WHEN, deflateTableSheets(named));
    await writeXlsx(b, named, other, 1_048_575, WHEN);
    expect(readFileSync(a).equals(readFileSync(b))).toBe(true);
  });

  it('refuse parts made for another split instead of writing a workbook that does not match its sheets', async () => {
    const tables = releases(4, 60, 100);
    const named = tables.map((r) => ({ name: r.sheetName, table: r.table }));
    await expect(writeXlsx(join(dir, 'mismatch.xlsx'), named, REPORT, 40, WHEN, deflateTableSheets(named, 1_048_575))).rejects.toThrow(/deflated 2 sheets of 4/);
  });

  it('fail the workbook with the helper’s error (a value too long for a cell), and none when no workbook waits for them', async () => {
    const long = 'x'.repeat(40_000);
    const table = compactReleaseTable({ rowCount: 1, columns: [{ name: 'notes', dictionary: [long], codes: Uint32Array.of(0), via: null, numeric: false }] });
    const pending = startWorkbookSheets(WORKER, [{ stem: 'release', sheetName: 'Release', table }], 1_048_575)!;
    await expect(pending.parts).rejects.toThrow(/the workbook's sheets failed: a value of column “notes” has 40,000 characters, more than/);
    pending.close();
    // Here the same table is refused as the writer's own error, before any part is awaited.
    await expect(writeXlsx(join(dir, 'long.xlsx'), [{ name: 'Release', table }], [], 1_048_575, WHEN, pending.parts)).rejects.toBeInstanceOf(CellTooLongError);
    expect(startWorkbookSheets(undefined, [{ stem: 'release', sheetName: 'Release', table }], 1_048_575)).toBeUndefined();
  });
});
