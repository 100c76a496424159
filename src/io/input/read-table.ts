import { extname } from 'node:path';
import { readCsv } from './csv-reader.js';
import { checkLooksLikeText, checkRegularFile } from './file-kind.js';
import type { ImportedTable, ImportOptions } from './import-types.js';
import { readXlsx } from './xlsx-reader.js';
import { isSpssFile, readSav } from './spss-reader.js';
import { isStataFile, readDta } from './stata-reader.js';
import { isSasTransportFile, readXpt } from './sas-transport-reader.js';
import { closeSync, openSync, readSync } from 'node:fs';

/** Chooses the reader: .xlsx/.xlsm/.xls are workbooks, SPSS, Stata and SAS transport files are known by their first bytes, anything else is delimited text. */
export function readTable(path: string, options: ImportOptions): ImportedTable {
  checkRegularFile(path);
  const ext = extname(path).toLowerCase();
  if (ext === '.xlsx' || ext === '.xlsm' || ext === '.xls') return readXlsx(path, options);
  const head = firstBytes(path);
  if (head && isSpssFile(head)) return readSav(path, options);
  if (head && isStataFile(head)) return readDta(path, options);
  if (head && isSasTransportFile(head)) return readXpt(path, options);
  checkLooksLikeText(path, options.encoding === 'utf-16le' || options.encoding === 'utf-16be');
  return readCsv(path, options);
}

/** The file's first bytes, or undefined when it cannot be opened (the text reader then says why). */
function firstBytes(path: string): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const head = Buffer.alloc(64);
    return head.subarray(0, readSync(fd, head, 0, 64, 0));
  } finally {
    closeSync(fd);
  }
}
