import { xlsxText } from './neutralize.js';
import { codeBlocks, type CompactTable } from './release-table.js';
import { SharedStrings, sharedStringsXml, xmlAttribute } from './xlsx-strings.js';
import * as parts from './xlsx-parts.js';
import { ByteChunks } from './byte-chunks.js';
import { cellWords } from './cell-words.js';
import { deflatePart, ZipFileWriter, type DeflatedPart } from './zip-writer.js';
import { trimTrailing } from '../../common/trim-ends.js';
import { formatCount } from '../../common/format/numbers.js';

/** The earliest time a zip entry can hold (1980-01-01, UTC): the parts' date when none is given. */
const ZIP_EPOCH = new Date(Date.UTC(1980, 0, 1));

/** Excel's sheet limit is 1,048,576 rows including the header. */
export const MAX_SHEET_DATA_ROWS = 1_048_575;

export interface ExtraSheet {
  readonly name: string;
  readonly rows: readonly (readonly (string | number)[])[];
}

/**
 * Deflate level 1: sheet XML is highly repetitive, so the fastest level already compresses it about
 * 7:1; level 6 saved a further 15% of the file at three times the time on the 1M-row benchmark.
 */
const DEFLATE_LEVEL = 1;

/** Excel's column letters: 0 → A, 25 → Z, 26 → AA. */
export function columnLetters(index: number): string {
  let letters = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

/** One sheet's worth of rows. */
interface SheetSource {
  readonly name: string;
  readonly columns: number;
  /** The header row's cells, formatted like the rest. */
  readonly header: readonly Uint8Array[];
  /** Per column, the XML after `<c` (or `<c r="A12"`) of each code: a shared string, a number, or empty for an empty cell. */
  readonly cells: readonly (readonly Uint8Array[])[];
  /** The rows' codes, a block at a time, one array per column. */
  blocks(): Iterable<{ readonly count: number; readonly codes: readonly ArrayLike<number>[] }>;
}

const ascii = (text: string): Buffer => Buffer.from(text, 'latin1');
const ROW_START = ascii('<row r="');
const ROW_OPEN_END = ascii('">');
const ROW_END = ascii('</row>');
const CELL_START = ascii('<c');
const QUOTE = ascii('"');

/**
 * A sheet's XML, produced a chunk at a time so a million rows never sit in
 * memory as text: the stream asks for the next chunk only when the compressor
 * has taken the last one.
 *
 * A cell names its place (`r="C12"`) only after an empty cell of its row, which is left out: a cell
 * without one is in the column after the previous cell (ECMA-376 Part 1, 18.3.1.4, `r` optional),
 * as Excel, LibreOffice, openpyxl, SheetJS and readxl read it. The references were a third of the
 * sheet's bytes, all of them to compress.
 */
function* sheetXml(source: SheetSource): Generator<Buffer> {
  const columns = source.columns;
  const refStarts = Array.from({ length: columns }, (_, j) => ascii(`<c r="${columnLetters(j)}`));
  const out = new ByteChunks();
  out.put(Buffer.from(parts.WORKSHEET_START, 'utf8'));
  // The row's number is kept as its decimal digits and counted up in place, not formatted per row.
  const number = new RowNumber(1);
  // The same bytes in fewer copies: a row's first cell is opened together with the row (`">` and
  // its `<c`), and a cell's XML is copied together with the next cell's `<c` when that one is in the
  // next column (joined), which it nearly always is. Joined entries are made for columns of up to
  // JOINED_ENTRIES values, so a column of a million distinct values does not double its cells.
  // Cells are copied a word at a time (cell-words.ts).
  const opening = Buffer.concat([ROW_OPEN_END, CELL_START]);
  const cells = source.cells.map(cellWords);
  const joined = source.cells.map((column, j) => (j + 1 < columns && column.length <= JOINED_ENTRIES ? cellWords(column.map((bytes) => (bytes.length === 0 ? EMPTY : Buffer.concat([bytes, CELL_START])))) : undefined));
  const cellStart = cellWords([CELL_START]);
  // The header row: its cells as a block of one row (each column's only entry, code 0).
  const header = { count: 1, codes: Array.from({ length: columns }, () => new Uint32Array(1)) };
  const headerCells = Array.from({ length: columns }, (_, j) => cellWords([source.header[j] ?? EMPTY]));
  for (const [rows, rowCells, rowJoined] of [[[header], headerCells, []], [source.blocks(), cells, joined]] as const) {
    for (const block of rows) {
      const codes = block.codes;
      // One loop for every row (kept in one function: it runs ten million times at 1M rows).
      for (let i = 0; i < block.count; i++) {
        const rowDigits = number.digits;
        out.put(ROW_START);
        out.put(rowDigits);
        let previous = -1;
        let previousCode = 0;
        for (let j = 0; j < columns; j++) {
          const code = codes[j]![i]!;
          const column = rowCells[j]!;
          // A code past the column's entries (none in a release) is an empty cell, as before.
          if (code >= column.lengths.length || column.lengths[code] === 0) continue;
          if (previous === j - 1) {
            // In the column after the previous cell (or the first column): no reference.
            if (previous < 0) out.put(opening);
            else if (rowJoined[previous]) out.putCell(rowJoined[previous]!, previousCode);
            else {
              out.putCell(rowCells[previous]!, previousCode);
              out.putCell(cellStart, 0);
            }
          } else {
            // After one or more empty cells: the cell says where it is.
            if (previous < 0) out.put(ROW_OPEN_END);
            else out.putCell(rowCells[previous]!, previousCode);
            out.put(refStarts[j]!);
            out.put(rowDigits);
            out.put(QUOTE);
          }
          previous = j;
          previousCode = code;
        }
        if (previous < 0) out.put(ROW_OPEN_END);
        else out.putCell(rowCells[previous]!, previousCode);
        out.put(ROW_END);
        number.next();
        if (out.full) yield out.take();
      }
    }
  }
  out.put(Buffer.from(parts.WORKSHEET_END, 'utf8'));
  yield out.take();
}

/** Columns of at most this many values get their cells joined with the next column's start. */
const JOINED_ENTRIES = 65_536;

/** A positive whole number as its ASCII decimal digits, counted up by one in place. */
export class RowNumber {
  private readonly buffer = new Uint8Array(20);
  private start: number;
  /** The digits, a view that stays the same until the number gains a digit. */
  digits: Uint8Array;

  constructor(first: number) {
    const text = String(first);
    this.start = this.buffer.length - text.length;
    for (let i = 0; i < text.length; i++) this.buffer[this.start + i] = text.charCodeAt(i);
    this.digits = this.buffer.subarray(this.start);
  }

  next(): void {
    const b = this.buffer;
    let i = b.length - 1;
    while (i >= this.start && b[i] === 0x39) b[i--] = 0x30;
    if (i >= this.start) b[i]!++;
    else {
      b[--this.start] = 0x31;
      this.digits = b.subarray(this.start);
    }
  }
}

const EMPTY = new Uint8Array(0);

/** The cell XML (after `<c` and any reference) of every dictionary entry of a column, formatted once. */
function columnCells(name: string, dictionary: readonly string[], numeric: boolean, strings: SharedStrings): Uint8Array[] {
  // A column is written as numbers only if every value is one a workbook holds exactly; otherwise
  // (identifiers of 16 digits and more, -0, underflow) as text, the same text the CSV holds.
  const asNumbers = numeric && dictionary.every((value) => value === '' || exactNumber(value));
  return dictionary.map((value) => {
    if (value === '') return EMPTY;
    if (asNumbers) return ascii(`><v>${Number(value)}</v></c>`);
    return ascii(` t="s"><v>${strings.index(cellText(name, value))}</v></c>`);
  });
}

/** Excel's limit for the text of one cell. */
export const MAX_CELL_CHARACTERS = 32_767;

/** A value a workbook cannot hold: the run refuses the workbook instead of writing a cell Excel would cut or reject. */
export class CellTooLongError extends Error {
  constructor(
    readonly column: string,
    readonly length: number,
    what: 'a value' | 'the name' = 'a value',
  ) {
    super(`${what} of column “${what === 'the name' ? `${column.slice(0, 40)}…` : column}” has ${formatCount(length)} characters, more than the ${formatCount(MAX_CELL_CHARACTERS)} an Excel cell holds; release it as CSV only (output.formats ["csv"])`);
  }
}

function cellText(column: string, value: string): string {
  const text = xlsxText(value);
  if (text.length > MAX_CELL_CHARACTERS) throw new CellTooLongError(column, text.length);
  return text;
}

/**
 * Whether the text is a number a double holds exactly as written: finite, not a negative zero, not
 * an underflow to zero, and at most 15 significant digits (every such decimal survives the trip).
 */
export function exactNumber(value: string): boolean {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || Object.is(n, -0)) return false;
  const mantissa = value.trim().replace(/^[+-]/, '').replace(/[eE][+-]?\d+$/, '');
  if (!/^\d*\.?\d*$/.test(mantissa)) return false;
  const digits = trimTrailing(mantissa.replace('.', '').replace(/^0+/, ''), (code) => code === 0x30);
  if (n === 0) return digits === '';
  return digits.length <= 15;
}

function extraCell(value: string | number, strings: SharedStrings): Uint8Array {
  if (typeof value === 'number' && Number.isFinite(value)) return ascii(`><v>${value}</v></c>`);
  const text = xlsxText(String(value)).slice(0, MAX_CELL_CHARACTERS);
  return text === '' ? EMPTY : ascii(` t="s"><v>${strings.index(text)}</v></c>`);
}

const FORBIDDEN_IN_SHEET_NAMES = /[[\]:*?/\\]/g;
const MAX_SHEET_NAME = 31;

/**
 * Excel's rules for sheet names: at most 31 characters, none of [ ] : * ? / \, no apostrophe at
 * either end, unique without regard to case. A suffix (a part number, a counter) is kept whole and
 * the name shortened before it, never through a surrogate pair.
 */
export class SheetNames {
  private readonly taken = new Set<string>();

  name(wanted: string, suffix = ''): string {
    const base = wanted.replace(FORBIDDEN_IN_SHEET_NAMES, '_').replace(/^'+|'+$/g, '') || 'Sheet';
    for (let n = 1; ; n++) {
      const tail = n === 1 ? suffix : `${suffix} (${n})`;
      const room = MAX_SHEET_NAME - [...tail].length;
      const name = [...base].slice(0, Math.max(1, room)).join('').replace(/'+$/, '') + tail;
      if (!this.taken.has(name.toLowerCase())) {
        this.taken.add(name.toLowerCase());
        return name;
      }
    }
  }
}

/**
 * The tables' sheets: every dictionary entry made one shared string (or a number) first, in table
 * and column order, so the tables' sheets are the same bytes whatever descriptive sheets follow.
 */
function tableSheetSources(tables: readonly { name: string; table: CompactTable }[], maxRowsPerSheet: number): { strings: SharedStrings; names: SheetNames; sources: SheetSource[]; sheets: string[] } {
  const strings = new SharedStrings();
  const names = new SheetNames();
  const sources: SheetSource[] = [];
  const sheets: string[] = [];
  for (const { name, table } of tables) {
    const cells = table.columns.map((c) => columnCells(c.name, c.dictionary, c.numeric, strings));
    // A header Excel would cut is refused like a value: the workbook must hold what the CSV holds.
    const header = table.columns.map((c) => {
      const length = xlsxText(c.name).length;
      if (length > MAX_CELL_CHARACTERS) throw new CellTooLongError(c.name, length, 'the name');
      return extraCell(c.name, strings);
    });
    const sheetCount = Math.max(1, Math.ceil(table.rowCount / maxRowsPerSheet));
    for (let part = 0; part < sheetCount; part++) {
      const sheetName = names.name(name, sheetCount === 1 ? '' : ` ${part + 1}`);
      sources.push({
        name: sheetName,
        columns: table.columns.length,
        header,
        cells,
        blocks: () => codeBlocks(table, part * maxRowsPerSheet, Math.min(table.rowCount, (part + 1) * maxRowsPerSheet)),
      });
      sheets.push(sheetName);
    }
  }
  return { strings, names, sources, sheets };
}

/**
 * The tables' sheets of writeXlsx deflated, one part each: the work of a workbook that does not
 * depend on its descriptive sheets (which list the files written before it), so a helper thread
 * does it while the job's thread writes the other files.
 */
export async function deflateTableSheets(tables: readonly { name: string; table: CompactTable }[], maxRowsPerSheet = MAX_SHEET_DATA_ROWS): Promise<DeflatedPart[]> {
  const parts: DeflatedPart[] = [];
  for (const source of tableSheetSources(tables, maxRowsPerSheet).sources) parts.push(await deflatePart(sheetXml(source), DEFLATE_LEVEL));
  return parts;
}

/**
 * A workbook with each table split over as many sheets as Excel's row limit
 * needs, plus descriptive sheets. The sheet XML streams from the columnar
 * table: every dictionary entry becomes one shared string (or a number) once,
 * and each row is a line of references to them, deflated by Node's zlib as it
 * is produced. Cells are typed values, never formulas, so text needs no formula
 * guard; text is written as releasedText, the same value the CSV holds (without
 * its guard).
 */
export async function writeXlsx(
  path: string,
  tables: readonly { name: string; table: CompactTable }[],
  extraSheets: readonly ExtraSheet[] = [],
  maxRowsPerSheet = MAX_SHEET_DATA_ROWS,
  modified: Date = ZIP_EPOCH,
  /** The tables' sheets deflated already (deflateTableSheets on a helper thread, for the same tables and row limit). */
  tableSheets?: Promise<readonly DeflatedPart[]>,
): Promise<{ sha256: string; bytes: number; sheets: string[] }> {
  const { strings, names, sources, sheets } = tableSheetSources(tables, maxRowsPerSheet);
  const tableSheetCount = sources.length;
  for (const extra of extraSheets) {
    // Descriptive sheets are small: their cells are formatted up front, like the tables' dictionaries.
    const [header = [], ...body] = extra.rows.map((row) => row.map((value) => extraCell(value, strings)));
    const columns = Math.max(0, ...extra.rows.map((row) => row.length));
    // Each row's own cells: column j of row i is code i of column j.
    const rowIndex = Array.from({ length: body.length }, (_, i) => i);
    sources.push({
      name: names.name(extra.name),
      columns,
      header,
      cells: Array.from({ length: columns }, (_, j) => body.map((row) => row[j] ?? EMPTY)),
      blocks: () => [{ count: body.length, codes: Array.from({ length: columns }, () => rowIndex) }],
    });
  }
  // Every part dated with the given time, so the same tables and time give the same bytes: verify
  // writes the workbook again and compares them.
  const zip = new ZipFileWriter(path, DEFLATE_LEVEL, modified);
  try {
    await zip.add('[Content_Types].xml', parts.contentTypes(sources.length));
    await zip.add('_rels/.rels', parts.ROOT_RELATIONSHIPS);
    await zip.add('docProps/core.xml', parts.CORE_PROPERTIES);
    await zip.add('docProps/app.xml', parts.APP_PROPERTIES);
    await zip.add('xl/workbook.xml', parts.workbook(sources.map((s) => xmlAttribute(s.name))));
    await zip.add('xl/_rels/workbook.xml.rels', parts.workbookRelationships(sources.length));
    await zip.add('xl/styles.xml', parts.STYLES);
    // Every string is known before the first row is written: the dictionaries are the shared strings.
    await zip.add('xl/sharedStrings.xml', sharedStringsXml(strings));
    const deflated = tableSheets ? await tableSheets : undefined;
    if (deflated && deflated.length !== tableSheetCount) throw new Error(`the helper deflated ${deflated.length} sheets of ${tableSheetCount}`);
    for (const [i, source] of sources.entries()) {
      const name = `xl/worksheets/sheet${i + 1}.xml`;
      if (deflated && i < tableSheetCount) zip.addDeflated(name, deflated[i]!);
      else await zip.add(name, sheetXml(source));
    }
    const { sha256, bytes } = zip.finish();
    return { sha256, bytes, sheets };
  } finally {
    zip.close();
  }
}
