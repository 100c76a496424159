import { createHash } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';
import { lazyRequire } from '../lazy-require.js';
import { xlsxText } from './neutralize.js';
import { cellCode, type ReleaseTable } from './release-table.js';

const excelJs = lazyRequire<typeof import('exceljs')>('exceljs');

/** Excel's sheet limit is 1,048,576 rows including the header. */
export const MAX_SHEET_DATA_ROWS = 1_048_575;

export interface ExtraSheet {
  readonly name: string;
  readonly rows: readonly (readonly (string | number)[])[];
}

async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * A workbook with each table split over as many sheets as Excel's row limit
 * needs, plus descriptive sheets. Written with ExcelJS's streaming writer, row
 * by row, so a million-row release never sits in memory as cell objects.
 * Cells are typed values, never formulas, so text needs no formula guard; text is
 * written as releasedText, the same value the CSV holds (without its guard).
 */
export async function writeXlsx(
  path: string,
  tables: readonly { name: string; table: ReleaseTable }[],
  extraSheets: readonly ExtraSheet[] = [],
  maxRowsPerSheet = MAX_SHEET_DATA_ROWS,
): Promise<{ sha256: string; bytes: number; sheets: string[] }> {
  const workbook = new (excelJs().stream.xlsx.WorkbookWriter)({ filename: path, useSharedStrings: true, useStyles: false });
  workbook.creator = 'Custos';
  const sheets: string[] = [];
  for (const { name, table } of tables) {
    const header = table.columns.map((c) => xlsxText(c.name));
    const typed = table.columns.map((c) =>
      c.dictionary.map((v): string | number => (c.numeric && v !== '' && Number.isFinite(Number(v)) ? Number(v) : xlsxText(v))),
    );
    const parts = Math.max(1, Math.ceil(table.rowCount / maxRowsPerSheet));
    const row = new Array<string | number>(table.columns.length);
    for (let part = 0; part < parts; part++) {
      const sheetName = parts === 1 ? name : `${name} ${part + 1}`.slice(0, 31);
      const sheet = workbook.addWorksheet(sheetName);
      sheet.addRow(header).commit();
      const end = Math.min(table.rowCount, (part + 1) * maxRowsPerSheet);
      for (let r = part * maxRowsPerSheet; r < end; r++) {
        for (let j = 0; j < table.columns.length; j++) row[j] = typed[j]![cellCode(table.columns[j]!, r)]!;
        sheet.addRow(row).commit();
      }
      await sheet.commit();
      sheets.push(sheetName);
    }
  }
  for (const extra of extraSheets) {
    const sheet = workbook.addWorksheet(extra.name);
    for (const values of extra.rows) sheet.addRow(values.map((v) => (typeof v === 'string' ? xlsxText(v) : v))).commit();
    await sheet.commit();
  }
  await workbook.commit();
  return { sha256: await sha256File(path), bytes: statSync(path).size, sheets };
}
