import { extname } from 'node:path';
import { readCsv } from './csv-reader.js';
import { checkLooksLikeText, checkRegularFile } from './file-kind.js';
import type { ImportedTable, ImportOptions } from './import-types.js';
import { readXlsx } from './xlsx-reader.js';
import { isSpssFile, readSav } from './spss-reader.js';

/** Chooses the reader: .xlsx/.xlsm/.xls are workbooks, a file starting $FL2/$FL3 an SPSS system file, anything else delimited text. */
export function readTable(path: string, options: ImportOptions): ImportedTable {
  checkRegularFile(path);
  const ext = extname(path).toLowerCase();
  if (ext === '.xlsx' || ext === '.xlsm' || ext === '.xls') return readXlsx(path, options);
  if (isSpssFile(path)) return readSav(path, options);
  checkLooksLikeText(path, options.encoding === 'utf-16le' || options.encoding === 'utf-16be');
  return readCsv(path, options);
}
