import * as XLSX from 'xlsx';
import { HashedFileWriter } from './hashed-file.js';
import { neutralizeFormula } from './neutralize.js';
import { cellCode, type ReleaseTable } from './release-table.js';

/** Excel's sheet limit is 1,048,576 rows including the header. */
export const MAX_SHEET_DATA_ROWS = 1_048_575;

export interface ExtraSheet {
  readonly name: string;
  readonly rows: readonly (readonly (string | number)[])[];
}

/**
 * A workbook with the release split over as many sheets as Excel's row limit
 * needs, plus descriptive sheets. Cells are typed values, never formulas.
 */
export function writeXlsx(
  path: string,
  tables: readonly { name: string; table: ReleaseTable }[],
  extraSheets: readonly ExtraSheet[] = [],
  maxRowsPerSheet = MAX_SHEET_DATA_ROWS,
): { sha256: string; bytes: number; sheets: string[] } {
  const workbook = XLSX.utils.book_new();
  const sheets: string[] = [];
  for (const { name, table } of tables) sheets.push(...appendTable(workbook, table, name, maxRowsPerSheet));
  for (const extra of extraSheets) {
    const rows = extra.rows.map((row) => row.map((v) => (typeof v === 'string' ? neutralizeFormula(v) : v)));
    XLSX.utils.book_append_sheet(workbook, XLSX.utils.aoa_to_sheet(rows, { dense: true }), extra.name);
  }
  const buffer = XLSX.write(workbook, { type: 'buffer', bookType: 'xlsx', compression: true }) as Buffer;
  const out = new HashedFileWriter(path);
  out.write(buffer);
  return { ...out.close(), sheets };
}

function appendTable(workbook: XLSX.WorkBook, table: ReleaseTable, sheetName: string, maxRowsPerSheet: number): string[] {
  const header = table.columns.map((c) => neutralizeFormula(c.name));
  const typed = table.columns.map((c) =>
    c.dictionary.map((v): string | number => {
      if (c.numeric && v !== '' && Number.isFinite(Number(v))) return Number(v);
      return neutralizeFormula(v);
    }),
  );
  const sheets: string[] = [];
  const parts = Math.max(1, Math.ceil(table.rowCount / maxRowsPerSheet));
  for (let part = 0; part < parts; part++) {
    const start = part * maxRowsPerSheet;
    const end = Math.min(table.rowCount, start + maxRowsPerSheet);
    const rows: (string | number)[][] = [header];
    for (let r = start; r < end; r++) rows.push(table.columns.map((c, j) => typed[j]![cellCode(c, r)]!));
    const name = parts === 1 ? sheetName : `${sheetName} ${part + 1}`.slice(0, 31);
    XLSX.utils.book_append_sheet(workbook, XLSX.utils.aoa_to_sheet(rows, { dense: true }), name);
    sheets.push(name);
  }
  return sheets;
}
