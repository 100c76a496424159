import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { STATISTICAL_FORMATS } from '../../common/job/job-parts.js';
import type { Table } from '../../common/table/table.js';
import { readTable } from '../../io/input/read-table.js';
import { csvText } from '../../io/output/neutralize.js';
import type { CheckList } from '../method-kit/checks.js';
import { readReleased, RELEASED_TABLE_OPTIONS } from '../method-kit/released-table.js';
import { TEST_STAMP_COLUMN } from '../method-kit/release-view.js';
import { isBlank, trimTrailing } from '../../common/trim-ends.js';

/** Formats a release may also be written in, each beside the CSV of the same table. */

/**
 * A release's SPSS and Stata files hold the tables its CSV files hold: the same rows in the same
 * order, the same values in the same column order (names may differ: they are made valid for the
 * package). SPSS pads strings with blanks, so trailing blanks are not compared.
 */
export function checkFormatAgreement(dir: string, files: readonly string[], delimiter: string, checks: CheckList): void {
  for (const name of files.filter((f) => STATISTICAL_FORMATS.some((format) => f.endsWith(`.${format}`)))) {
    checks.run(`${name} agrees with the CSV`, () => {
      const stem = name.slice(0, name.lastIndexOf('.'));
      if (!existsSync(join(dir, `${stem}.csv`))) return { ok: false, detail: `no ${stem}.csv beside it to compare with` };
      const csv = readReleased(dir, stem, '', delimiter);
      const read = readTable(join(dir, name), RELEASED_TABLE_OPTIONS).table;
      const sav: Table = { rowCount: read.rowCount, columns: read.columns.filter((c) => c.name !== TEST_STAMP_COLUMN) };
      if (sav.rowCount !== csv.rowCount || sav.columns.length !== csv.columns.length) {
        return { ok: false, detail: `${sav.rowCount} rows × ${sav.columns.length} columns, the CSV ${csv.rowCount} × ${csv.columns.length}` };
      }
      for (let j = 0; j < csv.columns.length; j++) {
        const a = sav.columns[j]!;
        const b = csv.columns[j]!;
        const savText = a.dictionary.map((v) => csvText(v));
        const csvTrimmed = b.dictionary.map((v) => trimTrailing(v, isBlank));
        for (let r = 0; r < csv.rowCount; r++) {
          if (savText[a.codes[r]!] !== csvTrimmed[b.codes[r]!]) return { ok: false, detail: `row ${r + 1}, column ${j + 1} (${b.name}): "${a.dictionary[a.codes[r]!]}" in ${name}, "${b.dictionary[b.codes[r]!]}" in ${stem}.csv` };
        }
      }
      return `${csv.rowCount} rows × ${csv.columns.length} columns, every value as in ${stem}.csv`;
    });
  }
}
