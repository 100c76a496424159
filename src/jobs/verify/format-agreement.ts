import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { STATISTICAL_FORMATS, type StatisticalFormat } from '../../common/job/job-parts.js';
import type { Table } from '../../common/table/table.js';
import { readTable } from '../../io/input/read-table.js';
import { csvText } from '../../io/output/neutralize.js';
import { exactNumber } from '../../io/output/xlsx-writer.js';
import type { CheckList } from '../method-kit/checks.js';
import { readReleased, RELEASED_TABLE_OPTIONS } from '../method-kit/released-table.js';
import { TEST_STAMP_COLUMN } from '../method-kit/release-view.js';
import { isBlank, trimTrailing } from '../../common/trim-ends.js';
import { REPORT_SHEETS, type ReleaseFiles } from './release-files.js';

/** Whether a value read from another format is the CSV's value (as the CSV's reader gives it back). */
type SameValue = (other: string, csv: string) => boolean;

/**
 * A release's SPSS and Stata files hold the tables its CSV files hold: the same rows in the same
 * order, the same values in the same column order (names may differ: they are made valid for the
 * package). SPSS pads strings with blanks, so trailing blanks are not compared. Each Parquet file
 * holds its CSV's table, and each data sheet of the workbook the table of the CSV with its column
 * names (of the Parquet file, in a release without CSV), value by value: text as the CSV holds it
 * (without the CSV's formula guard), a number as the number the CSV writes.
 */
export function checkFormatAgreement(files: ReleaseFiles, names: readonly string[], delimiter: string, checks: CheckList): void {
  const { dir } = files;
  const stemsOf = (ext: string): string[] => names.filter((f) => f.endsWith(ext)).map((f) => f.slice(0, -ext.length));
  const csvStems = stemsOf('.csv');
  // Each file beside a CSV holds its table: SPSS pads strings with blanks; Parquet is typed as the
  // workbook is (and is only compared when there is a CSV: alone, it is the release's reference).
  const besideCsv = new Map<string, SameValue>([
    ...STATISTICAL_FORMATS.map((format): [string, SameValue] => [`.${format}`, STATISTICAL_SAME[format]]),
    ...(csvStems.length > 0 ? [['.parquet', typedValueIsCsvValue] as [string, SameValue]] : []),
  ]);
  for (const name of names) {
    const ext = name.slice(name.lastIndexOf('.'));
    const same = besideCsv.get(ext);
    if (!same) continue;
    checks.run(`${name} agrees with the CSV`, () => {
      const stem = name.slice(0, -ext.length);
      if (!existsSync(join(dir, `${stem}.csv`))) return { ok: false, detail: `no ${stem}.csv beside it to compare with` };
      const csv = readReleased(dir, stem, '', delimiter);
      const table = withoutStamp(readTable(join(dir, name), RELEASED_TABLE_OPTIONS).table);
      return firstDisagreement(table, csv, same, name, `${stem}.csv`) ?? `${csv.rowCount} rows × ${csv.columns.length} columns, every value as in ${stem}.csv`;
    });
  }
  const parquetStems = stemsOf('.parquet');
  // The workbook against the CSV files, or (a release without CSV) the Parquet files.
  const reference = csvStems.length > 0 ? { ext: 'csv', stems: csvStems, same: typedValueIsCsvValue, what: 'the CSV' } : { ext: 'parquet', stems: parquetStems, same: typedValueIsTypedValue, what: 'the Parquet files' };
  if (names.includes('release.xlsx') && reference.stems.length > 0) {
    checks.run(`release.xlsx agrees with ${reference.what}`, () => {
      const sheets = files.parts('release.xlsx').filter((p) => p.sheet !== null && !REPORT_SHEETS.has(p.sheet));
      const tables = reference.stems.map((stem) => ({ stem, table: readReleased(dir, stem, '', delimiter) }));
      const matched = new Map<string, string>();
      for (const sheet of sheets) {
        const table = withoutStamp(sheet.table!());
        const header = table.columns.map((c) => c.name).join('\u0000');
        // Its twin by column names (two files with the same names: the one it agrees with).
        const twins = tables.filter((c) => !matched.has(c.stem) && c.table.columns.map((x) => x.name).join('\u0000') === header);
        if (twins.length === 0) return { ok: false, detail: `sheet "${sheet.sheet}" has no ${reference.ext.toUpperCase()} file with its columns (${table.columns.map((c) => c.name).join(', ')})` };
        const verdicts = twins.map((twin) => ({ twin, disagreement: firstDisagreement(table, twin.table, reference.same, `sheet "${sheet.sheet}"`, `${twin.stem}.${reference.ext}`) }));
        const agreeing = verdicts.find((v) => v.disagreement === null);
        if (!agreeing) return verdicts[0]!.disagreement!;
        matched.set(agreeing.twin.stem, `sheet "${sheet.sheet}" is ${agreeing.twin.stem}.${reference.ext} (${table.rowCount} rows × ${table.columns.length} columns)`);
      }
      const unmatched = reference.stems.filter((stem) => !matched.has(stem));
      if (unmatched.length > 0) return { ok: false, detail: `no sheet holds ${unmatched.map((s) => `${s}.${reference.ext}`).join(', ')}` };
      return `${[...matched.values()].join('; ')}, value by value`;
    });
  }
}

/**
 * A value of a statistical file is the CSV's as its reader gives it back: SPSS pads strings with
 * blanks, so its reader drops trailing blanks and they are not compared; Stata pads with NULs and
 * keeps a value's own blanks, so they are. A reader that drops a value's leading U+FEFF (a decoder's
 * byte-order mark) is not held against the file either.
 */
const STATISTICAL_SAME: Readonly<Record<StatisticalFormat, SameValue>> = {
  sav: (value, csvValue) => withLostBom(value, csvValue, (v) => csvText(v) === trimTrailing(csvValue, isBlank)),
  dta: (value, csvValue) => withLostBom(value, csvValue, (v) => csvText(v) === csvValue),
};

const BOM = '\ufeff';

function withLostBom(value: string, csvValue: string, same: (value: string) => boolean): boolean {
  return same(value) || (!value.startsWith(BOM) && csvValue.includes(BOM) && same(BOM + value));
}

function withoutStamp(table: Table): Table {
  return { rowCount: table.rowCount, columns: table.columns.filter((c) => c.name !== TEST_STAMP_COLUMN) };
}

/**
 * A workbook or Parquet file holds text typed (no formula guard, so the CSV's guarded form is
 * compared) and a column of exact numbers as numbers, which read back in their shortest form
 * ("1.50" as 1.5).
 */
const typedValueIsCsvValue: SameValue = (value, csvValue) => withLostBom(value, csvValue, (v) => csvText(v) === csvValue) || (exactNumber(csvValue) && String(Number(csvValue)) === value);

/** Two typed formats (the workbook and a Parquet file): the same text, or the same exact number. */
const typedValueIsTypedValue: SameValue = (value, other) => value === other || (exactNumber(other) && String(Number(other)) === value);

/** The first row and column where two tables of the same shape differ, or null when they agree. */
function firstDisagreement(table: Table, csv: Table, same: SameValue, what: string, csvName: string): { ok: false; detail: string } | null {
  if (table.rowCount !== csv.rowCount || table.columns.length !== csv.columns.length) {
    return { ok: false, detail: `${what} has ${table.rowCount} rows × ${table.columns.length} columns, ${csvName} ${csv.rowCount} × ${csv.columns.length}` };
  }
  for (let j = 0; j < csv.columns.length; j++) {
    const a = table.columns[j]!;
    const b = csv.columns[j]!;
    // The CSV value each value was last found equal to: values correspond one to one but for
    // numbers written two ways ("1.5", "1.50"), so the comparison is rarely made twice.
    const equal = new Int32Array(a.dictionary.length).fill(-1);
    for (let r = 0; r < csv.rowCount; r++) {
      const x = a.codes[r]!;
      const y = b.codes[r]!;
      if (equal[x] === y) continue;
      const agrees = same(a.dictionary[x]!, b.dictionary[y]!);
      if (agrees) equal[x] = y;
      else return { ok: false, detail: `row ${r + 1}, column ${j + 1} (${b.name}): "${a.dictionary[x]}" in ${what}, "${b.dictionary[y]}" in ${csvName}` };
    }
  }
  return null;
}
