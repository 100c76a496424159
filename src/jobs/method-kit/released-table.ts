import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Table } from '../../common/table/table.js';
import type { ImportOptions } from '../../io/input/import-types.js';
import { readTable } from '../../io/input/read-table.js';
import { MAX_AUDITED_INFLATED_BYTES } from '../../io/input/zip-limits.js';
import { TEST_STAMP_COLUMN } from './release-view.js';
import { csvText, xlsxText } from '../../io/output/neutralize.js';

/**
 * How a release's files are read back: every value as text, a malformed row an error, a table of
 * no records allowed (every class may be suppressed), and a workbook within the audit limit (a
 * release's workbook may hold a million rows, past the limit for input workbooks).
 */
export const RELEASED_TABLE_OPTIONS: ImportOptions = { missing: [], onBadRow: 'error', allowNoRecords: true, workbookLimit: MAX_AUDITED_INFLATED_BYTES };

/**
 * A released table read back as an auditor would: from its CSV, or else from its Parquet file,
 * or else from the workbook sheet of the same name. The test stamp column is dropped.
 */
export function readReleased(dir: string, stem: string, sheet: string, delimiter: string): Table {
  const csv = join(dir, `${stem}.csv`);
  let table: Table;
  if (existsSync(csv)) {
    // The encoding is detected (a UTF-8 BOM, or bytes that are not UTF-8: Windows-1252), as the release may be written in either.
    // Through readTable, as every input: a file too large to hold is an input problem naming it, not a crash.
    const read = readTable(csv, { ...RELEASED_TABLE_OPTIONS, delimiter }).table;
    table = { rowCount: read.rowCount, columns: read.columns.map((c) => ({ ...c, name: unguarded(c.name) })) };
  } else if (existsSync(join(dir, `${stem}.parquet`))) table = readTable(join(dir, `${stem}.parquet`), RELEASED_TABLE_OPTIONS).table;
  else table = readTable(join(dir, 'release.xlsx'), { ...RELEASED_TABLE_OPTIONS, sheet }).table;
  return { rowCount: table.rowCount, columns: table.columns.filter((c) => c.name !== TEST_STAMP_COLUMN) };
}

/**
 * The CSV writer guards a header like any text cell (`=q` is written `'=q`), but the
 * job and report name the column `=q`. Only a header the guard could have produced
 * loses its apostrophe; a name that itself began with `'` and a trigger reads as the
 * guarded one, so verify then misses that column and fails rather than passes.
 */
function unguarded(header: string): string {
  return header.startsWith("'") && csvText(header.slice(1)) === header ? header.slice(1) : header;
}

/** How the format the auditor reads (CSV if present, else Parquet or the workbook, which store the same typed text) wrote a value of the input. */
export function writtenForm(dir: string, stem: string): (value: string) => string {
  return existsSync(join(dir, `${stem}.csv`)) ? csvText : xlsxText;
}

export function valueAt(table: Table, column: string, row: number): string {
  const c = table.columns.find((x) => x.name === column);
  if (!c) throw new Error(`the released table has no column "${column}"`);
  return c.dictionary[c.codes[row]!]!;
}

/** Rows as tuple keys over the given columns (for multiset comparisons). */
export function tupleKeys(table: Table, columns: readonly string[], format: (value: string) => string = (v) => v): string[] {
  const cols = columns.map((name) => {
    const c = table.columns.find((x) => x.name === name);
    if (!c) throw new Error(`the table has no column "${name}"`);
    return c;
  });
  const formatted = cols.map((c) => c.dictionary.map(format));
  return Array.from({ length: table.rowCount }, (_, r) => cols.map((c, j) => formatted[j]![c.codes[r]!]!).join('\u0000'));
}

export function countBy(keys: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1);
  return counts;
}
