import { basename, extname } from 'node:path';
import { InputError } from './input-error.js';
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
  if (head && isSpssFile(head)) return refusingDamage('SPSS', path, () => readSav(path, options));
  if (head && isStataFile(head)) return refusingDamage('Stata', path, () => readDta(path, options));
  if (head && isSasTransportFile(head)) return refusingDamage('SAS transport', path, () => readXpt(path, options));
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

/** Error codes Node gives for reading past a buffer, undecodable text, bad numbers and corrupt zlib data. */
const DAMAGE_CODES = new Set(['ERR_BUFFER_OUT_OF_BOUNDS', 'ERR_OUT_OF_RANGE', 'ERR_ENCODING_INVALID_ENCODED_DATA', 'Z_DATA_ERROR', 'Z_BUF_ERROR', 'ERR_BUFFER_TOO_LARGE']);

/**
 * A binary file's reader checks the structure it knows; whatever else a damaged or crafted file
 * trips (an offset past the end, text that is not UTF-8, corrupt compressed data, an impossible
 * length) is refused as a damaged file naming it (exit 3), never reported as a crash.
 */
function refusingDamage(format: string, path: string, read: () => ImportedTable): ImportedTable {
  try {
    return read();
  } catch (error) {
    if (error instanceof InputError) throw error;
    const code = (error as { code?: unknown }).code;
    const damage = (typeof code === 'string' && DAMAGE_CODES.has(code)) || error instanceof RangeError;
    if (damage) throw new InputError(`the ${format} file is damaged and cannot be read (${(error as Error).message})`, basename(path));
    throw error;
  }
}
