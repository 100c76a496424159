import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { CellObject, Range, WorkBook, WorkSheet } from 'xlsx';
import { lazyRequire } from '../lazy-require.js';
import type { ImportedTable, ImportOptions, RejectedRow } from './import-types.js';
import { InputError } from './input-error.js';
import { nameColumns, TableBuilder } from './table-builder.js';
import { describeErrno } from './file-kind.js';
import { checkZipLimits, MAX_INFLATED_BYTES, ZipLimitError } from './zip-limits.js';
import { SharedStringReferences } from './xlsx-shared-strings.js';
import { formatCount } from '../../common/format/numbers.js';

/** Excel's row limit, header included. */
const MAX_SHEET_ROWS = 1_048_576;

/**
 * A sheet's range may span at most one cell per 8 bytes of XML the workbook may inflate to, empty
 * cells included (each costs memory as the sheet is read): a cell takes some 20 bytes of XML, so a
 * range beyond this is mostly empty. Within the input limit (128 MiB) that is 2^24 cells.
 */
const XML_BYTES_PER_SPANNED_CELL = 8;

const sheetJs = lazyRequire<typeof import('xlsx')>('xlsx');

/** Reads one sheet of a workbook; the first row is the header. `maxRows` is lowered only by tests, which cannot afford a million-row sheet. */
export function readXlsx(path: string, options: ImportOptions, maxRows = MAX_SHEET_ROWS): ImportedTable {
  const XLSX = sheetJs();
  const name = basename(path);
  const limit = options.workbookLimit ?? MAX_INFLATED_BYTES;
  const references = new SharedStringReferences();
  const bytes = checkedWorkbookBytes(path, name, limit, references.visit);
  // A named sheet: only it is parsed (the names of all are still listed), the others can be most of
  // the file. No sheet named: every sheet is parsed, to open the one that holds the data.
  const named = options.sheet ?? undefined;
  const workbook = parseWorkbook(XLSX, bytes, name, maxRows, named);
  references.check(sharedStringCount(workbook), name);
  const sheets = workbook.SheetNames;
  const wanted = named ?? dataSheet(workbook);
  const sheetName = typeof wanted === 'number' ? sheets[wanted] : sheets.find((s) => s === wanted);
  if (sheetName === undefined) {
    throw new InputError(`no sheet ${JSON.stringify(wanted)}; the workbook has ${sheets.map((s) => JSON.stringify(s)).join(', ')}`, name, undefined, undefined, { sheets, advice: 'sheet' });
  }
  parsedSheet(workbook, sheetName, name);
  return {
    ...sheetOf(XLSX, workbook, sheetName, name, options, maxRows, limit),
    sha256: createHash('sha256').update(bytes).digest('hex'),
    bytes: bytes.length,
  };
}

/**
 * The sheet that holds the data when none is named: the one with the most rows of two or more
 * cells (a table's rows; a README or cover sheet is a column of text), the first on a tie or when
 * no sheet has such a row. Agencies' workbooks often open on a README, notes or a cover sheet.
 */
export function dataSheet(workbook: WorkBook): number {
  let best = 0;
  let bestRows = 0;
  workbook.SheetNames.forEach((sheetName, index) => {
    const rows = (workbook.Sheets[sheetName]?.['!data'] ?? []) as readonly (readonly (CellObject | undefined)[] | undefined)[];
    let tableRows = 0;
    for (const row of rows) {
      if (!row) continue;
      let cells = 0;
      // some() visits the cells present only (a dense row is a sparse array) and stops at the second.
      if (row.some((cell) => cell !== undefined && cell.v !== undefined && cell.v !== null && cell.v !== '' && ++cells === 2)) tableRows++;
    }
    if (tableRows > bestRows) {
      best = index;
      bestRows = tableRows;
    }
  });
  return best;
}

/** One sheet of a workbook read by readWorkbookSheets: its cells as text, and as a table when asked. */
export interface WorkbookSheet {
  readonly name: string;
  /** Its cells as CSV text, row after row. */
  readonly text: string;
  /** The sheet as a table (first row the header), or an InputError when it is not one. */
  table(): ImportedTable['table'];
}

/**
 * Every sheet of a workbook from one parse: its document properties (as JSON text), and each sheet
 * as text and as a table. For verify, which searches a release's workbook for what must not be
 * there and reads its tables; parsing a million-row sheet takes most of a minute, so it is done once.
 * The same checks as readXlsx apply first (zip limits with `options.workbookLimit`, spanned cells).
 */
export function readWorkbookSheets(path: string, options: ImportOptions): { properties: string; sheets: WorkbookSheet[] } {
  const XLSX = sheetJs();
  const name = basename(path);
  const limit = options.workbookLimit ?? MAX_INFLATED_BYTES;
  const references = new SharedStringReferences();
  const workbook = parseWorkbook(XLSX, checkedWorkbookBytes(path, name, limit, references.visit), name, MAX_SHEET_ROWS, undefined);
  references.check(sharedStringCount(workbook), name);
  const sheets = workbook.SheetNames.map((sheetName): WorkbookSheet => {
    const sheet = parsedSheet(workbook, sheetName, name);
    const text = inSheet(sheetName, workbook.SheetNames, () => {
      boundRange(XLSX, sheet, name, limit);
      return XLSX.utils.sheet_to_csv(sheet, { blankrows: false });
    });
    return { name: sheetName, text, table: () => sheetOf(XLSX, workbook, sheetName, name, options, MAX_SHEET_ROWS, limit).table };
  });
  return { properties: JSON.stringify(workbook.Props ?? {}), sheets };
}

/**
 * How many shared strings the workbook holds: the strings a cell of type "s" may refer to. SheetJS
 * splits the table at each </si> and keeps the piece after the last one as an empty string of its
 * own (no raw XML, `r`): that piece is no string of the workbook, and an index to it is out of range.
 */
function sharedStringCount(workbook: WorkBook): number {
  const strings = (workbook as WorkBook & { Strings?: unknown }).Strings;
  if (!Array.isArray(strings)) return 0;
  const last = strings[strings.length - 1] as { t?: unknown; r?: unknown } | undefined;
  return last && last.t === '' && last.r === undefined ? strings.length - 1 : strings.length;
}

/**
 * The sheet as SheetJS parsed it. SheetJS drops a sheet whose parse failed (it catches the error),
 * while still listing its name: such a sheet is refused here, not read as a TypeError.
 */
function parsedSheet(workbook: WorkBook, sheetName: string, name: string): WorkSheet {
  const sheet = workbook.Sheets[sheetName];
  if (sheet) return sheet;
  throw new InputError('the sheet cannot be read (its XML is damaged); open the workbook in Excel and save it again, or export the sheet as CSV', name, undefined, undefined, { sheet: sheetName, sheets: workbook.SheetNames });
}

/** The workbook's bytes, once its zip directory and parts are within the limit; `onPart` sees each inflated part. */
function checkedWorkbookBytes(path: string, name: string, limit: number, onPart?: (part: string, data: Uint8Array) => void): Buffer {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    throw new InputError(`cannot open the file: ${describeErrno((error as NodeJS.ErrnoException).code)}`, name);
  }
  const zip = bytes[0] === 0x50 && bytes[1] === 0x4b;
  const compoundFile = bytes[0] === 0xd0 && bytes[1] === 0xcf && bytes[2] === 0x11 && bytes[3] === 0xe0;
  if (!zip && !compoundFile) throw new InputError('not an Excel workbook (.xlsx files are zip archives); is it a CSV file with the wrong extension?', name);
  if (zip) {
    try {
      checkZipLimits(bytes, limit, onPart);
    } catch (error) {
      if (error instanceof ZipLimitError) throw new InputError(`the workbook cannot be read safely: ${error.message}; export the sheet as CSV`, name);
      throw error;
    }
  }
  return bytes;
}

/** Parses the workbook dense, the wanted sheet only (all when undefined). */
function parseWorkbook(XLSX: typeof import('xlsx'), bytes: Buffer, name: string, maxRows: number, wanted: string | number | undefined): WorkBook {
  try {
    // One row past Excel's limit is read, to tell a full sheet from an over-long one.
    return XLSX.read(bytes, { type: 'buffer', dense: true, cellFormula: false, cellHTML: false, cellDates: true, sheetRows: maxRows + 1, ...(wanted !== undefined ? { sheets: wanted } : {}) });
  } catch (error) {
    throw new InputError(`not a readable Excel workbook (${(error as Error).message})`, name);
  }
}

/** Runs the read of one sheet, naming it (and offering the workbook's others) in any input error. */
function inSheet<T>(sheetName: string, sheets: readonly string[], read: () => T): T {
  try {
    return read();
  } catch (error) {
    // The sheet is named, and the workbook's others offered: the table may be on one of them.
    if (error instanceof InputError) throw error.withContext({ sheet: sheetName, sheets, ...(sheets.length > 1 ? { advice: 'sheet' } : {}) });
    throw error;
  }
}

/**
 * Narrows the sheet's range to its cells (see usedRange) and refuses a range spanning too many:
 * every reading of a sheet visits each cell of its range, empty ones included. Two cells far apart
 * in each row (A and XFD) made a 620 KB workbook a table of 16,384 columns, and 61 s later the heap
 * ran out. What rows span is bounded; a dense sheet within the zip limit holds far fewer cells.
 */
function boundRange(XLSX: typeof import('xlsx'), sheet: WorkSheet, name: string, limit: number): Range & { rows: number } {
  const range = usedRange(XLSX.utils.decode_range(sheet['!ref'] ?? 'A1'), sheet['!data'] ?? []);
  const maxCells = Math.floor(limit / XML_BYTES_PER_SPANNED_CELL);
  const spanned = range.rows * (range.e.c - range.s.c + 1);
  if (spanned > maxCells) {
    throw new InputError(`the sheet's ${formatCount(range.rows)} rows span ${XLSX.utils.encode_range(range)} (${formatCount(spanned)} cells, more than the ${formatCount(maxCells)} Custos reads from a workbook); delete stray cells far right of the table, or export the sheet as CSV`, name);
  }
  sheet['!ref'] = XLSX.utils.encode_range(range);
  return range;
}

function sheetOf(XLSX: typeof import('xlsx'), workbook: WorkBook, sheetName: string, name: string, options: ImportOptions, maxRows: number, limit: number): Omit<ImportedTable, 'sha256' | 'bytes'> {
  return inSheet(sheetName, workbook.SheetNames, () => readSheet(XLSX, workbook, sheetName, name, options, maxRows, limit));
}

function readSheet(XLSX: typeof import('xlsx'), workbook: WorkBook, sheetName: string, name: string, options: ImportOptions, maxRows: number, limit: number): Omit<ImportedTable, 'sha256' | 'bytes'> {
  const sheets = workbook.SheetNames;
  const sheet = parsedSheet(workbook, sheetName, name);
  const range = boundRange(XLSX, sheet, name, limit);
  const rows = XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: true, defval: null, blankrows: false });
  if (rows.length > maxRows) throw new InputError(`the sheet has more than Excel's ${formatCount(maxRows)} rows; it is not a valid workbook`, name, maxRows + 1);
  if (rows.length === 0) throw new InputError('the sheet is empty: a header row is expected', name, 1);
  const cells = rows[0]!.map((v) => cellText(v).trim());
  while (cells.length > 0 && cells[cells.length - 1] === '') cells.pop();
  const { names: header, renamed } = nameColumns(cells);
  const builder = new TableBuilder(header, options.missing);
  const rejected: RejectedRow[] = [];
  const fields = new Array<string>(header.length);
  for (let r = 1; r < rows.length; r++) {
    const row = rows[r]!;
    const sheetRow = range.s.r + r;
    const extra = row.slice(header.length).some((v) => v !== null && v !== '');
    if (extra) {
      const reason = `values beyond the ${header.length} named columns`;
      if (options.onBadRow === 'error') throw new InputError(reason, name, sheetRow + 1);
      rejected.push({ line: sheetRow + 1, reason });
      continue;
    }
    for (let j = 0; j < header.length; j++) {
      // A date cell arrives as a Date (cellDates): written as ISO text by cellText.
      fields[j] = cellText(row[j]);
    }
    builder.add(fields, sheetRow + 1);
  }
  return {
    table: builder.build(),
    firstLines: builder.firstLines(),
    format: 'xlsx',
    sheet: sheetName,
    sheets,
    rejectedRows: rejected,
    rejectedRowCount: rejected.length,
    ...(renamed.length > 0 ? { renamedColumns: renamed } : {}),
  };
}

/**
 * The sheet's range, ending at its last cell that holds a value, and how many of its rows hold one.
 * SheetJS takes the range from the sheet's <dimension>, which a writer may make far larger than
 * its cells (A1:XFD1048576 for a few cells): its start is kept, its end is the cells'.
 */
function usedRange(declared: Range, data: readonly (readonly (CellObject | undefined)[] | undefined)[]): Range & { rows: number } {
  let lastRow = declared.s.r;
  let lastColumn = declared.s.c;
  let rows = 0;
  for (let r = declared.s.r; r < Math.min(data.length, declared.e.r + 1); r++) {
    const row = data[r];
    if (!row) continue;
    let last = -1;
    for (let c = Math.min(row.length, declared.e.c + 1) - 1; c >= declared.s.c; c--) {
      const cell = row[c];
      if (cell && cell.t !== 'z') {
        last = c;
        break;
      }
    }
    if (last < 0) continue;
    rows++;
    lastRow = r;
    lastColumn = Math.max(lastColumn, last);
  }
  return { s: declared.s, e: { r: lastRow, c: lastColumn }, rows };
}

/**
 * A cell as text. A date cell (Excel stores a serial number with a date format) is written as an
 * ISO 8601 date, or date-time when it has a time of day, whatever the sheet's display format.
 */
function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return isoDate(value);
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  return String(value);
}

function isoDate(date: Date): string {
  if (Number.isNaN(date.getTime())) return '';
  const iso = date.toISOString();
  // SheetJS gives the cell's calendar date and time as UTC.
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.slice(0, 19);
}
