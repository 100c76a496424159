import { basename, extname } from 'node:path';
import { InputError, type InputAdvice, type InputErrorContext } from './input-error.js';
import { TableTooLargeError } from './table-limits.js';
import { readCsv } from './csv-reader.js';
import { checkLooksLikeText, checkRegularFile, readHead } from './file-kind.js';
import type { ImportedTable, ImportOptions } from './import-types.js';
import { readXlsx } from './xlsx-reader.js';
import { isSpssFile, readSav } from './spss-reader.js';
import { isStataFile, readDta } from './stata-reader.js';
import { isSasTransportFile, readXpt } from './sas-transport-reader.js';
import { readSas7bdat } from './sas7bdat-reader.js';
import { isSas7bdatFile } from './sas7bdat-structure.js';
import { isParquetFile, readParquet } from './parquet-reader.js';
import { formatCount } from '../../common/format/numbers.js';

/** Chooses the reader: .xlsx/.xlsm/.xls are workbooks, SPSS, Stata, SAS transport files, SAS data sets and Parquet files are known by their first bytes, anything else is delimited text. */
export function readTable(path: string, options: ImportOptions): ImportedTable {
  const imported = readAnyFormat(path, options);
  if (imported.table.rowCount === 0 && !options.allowNoRecords) throw noRecords(path, imported);
  return imported;
}

function noRecords(path: string, imported: ImportedTable): InputError {
  const first = imported.rejectedRows[0];
  const context: InputErrorContext = {
    format: imported.format,
    ...(imported.sheet !== undefined ? { sheet: imported.sheet, sheets: imported.sheets ?? [imported.sheet] } : {}),
  };
  if (first) {
    // Records longer or shorter than the header: a delimiter other than the file's is the usual cause of text; another sheet of a workbook's.
    const advice = adviceFor(imported.format, imported.sheets);
    return new InputError(`every one of the ${imported.sheet !== undefined ? 'sheet' : 'file'}'s ${formatCount(imported.rejectedRowCount)} record(s) is malformed (the first: ${first.reason})`, basename(path), first.line, undefined, {
      ...context,
      ...(advice ? { advice } : {}),
    });
  }
  const advice = imported.format === 'xlsx' ? adviceFor('xlsx', imported.sheets) : undefined;
  return new InputError(`the ${imported.sheet !== undefined ? 'sheet' : 'file'} has ${imported.table.columns.length === 0 ? 'no columns and ' : 'a header but '}no records: there is nothing to protect`, basename(path), imported.format === 'csv' ? 2 : undefined, undefined, {
    ...context,
    ...(advice ? { advice } : {}),
  });
}

/** The advice for a problem in the table's contents: the reading options of text, another sheet of a workbook of several. */
function adviceFor(format: ImportedTable['format'], sheets: readonly string[] | undefined): InputAdvice | undefined {
  if (format === 'csv') return 'reading-options';
  if (format === 'xlsx' && sheets && sheets.length > 1) return 'sheet';
  return undefined;
}

function readAnyFormat(path: string, options: ImportOptions): ImportedTable {
  checkRegularFile(path);
  const ext = extname(path).toLowerCase();
  if (ext === '.xlsx' || ext === '.xlsm' || ext === '.xls') return withFormat('xlsx', path, () => readXlsx(path, options));
  const head = readHead(path);
  if (isSpssFile(head)) return withFormat('sav', path, () => refusingDamage('SPSS', path, () => readSav(path, options)));
  if (isStataFile(head)) return withFormat('dta', path, () => refusingDamage('Stata', path, () => readDta(path, options)));
  if (isSasTransportFile(head)) return withFormat('xpt', path, () => refusingDamage('SAS transport', path, () => readXpt(path, options)));
  if (isSas7bdatFile(head)) return withFormat('sas7bdat', path, () => refusingDamage('SAS data set', path, () => readSas7bdat(path, options)));
  if (isParquetFile(head)) return withFormat('parquet', path, () => refusingDamage('Parquet', path, () => readParquet(path, options)));
  checkLooksLikeText(path, head, options.encoding === 'utf-16le' || options.encoding === 'utf-16be');
  return withFormat('csv', path, () => readCsv(path, options));
}

/**
 * A reader's problem carries the format it was read as (the page offers the reading options that
 * apply to it); a table too wide to read is named with its file (and, in delimited text, the
 * header's line, where a wrong delimiter can be the cause).
 */
function withFormat(format: ImportedTable['format'], path: string, read: () => ImportedTable): ImportedTable {
  try {
    return read();
  } catch (error) {
    if (error instanceof InputError) throw error.withContext({ format });
    if (error instanceof TableTooLargeError) {
      // Too many columns in delimited text is its header's (line 1), where a wrong delimiter can be the cause.
      const header = format === 'csv' && error.header;
      throw new InputError(error.message, basename(path), header ? 1 : undefined, undefined, { format, ...(header ? { advice: 'reading-options' as const } : {}) });
    }
    throw error;
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
