import { extname } from 'node:path';
import { readCsv } from './csv-reader.js';
import type { ImportedTable, ImportOptions } from './import-types.js';
import { readXlsx } from './xlsx-reader.js';

/** Chooses the reader by extension: .xlsx/.xlsm/.xls are workbooks, anything else delimited text. */
export function readTable(path: string, options: ImportOptions): ImportedTable {
  const ext = extname(path).toLowerCase();
  return ext === '.xlsx' || ext === '.xlsm' || ext === '.xls' ? readXlsx(path, options) : readCsv(path, options);
}
