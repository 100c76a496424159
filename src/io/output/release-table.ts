import { ByteChunks } from './byte-chunks.js';
import { cellWords } from './cell-words.js';
import { codePacks, unpackFields } from './packed-codes.js';
import { gatheredCodes, keepGatheredCodes, noteRenumbering } from './released-codes.js';
import { inferType } from '../../common/table/table.js';

/**
 * A released table described by references into dictionary-encoded data:
 * the value of column c at row r is c.dictionary[c.codes[c.via ? c.via[r] : r]].
 * Non-sensitive columns point into the input through `via`; nothing is
 * materialized per row until a writer formats it.
 */
export interface ReleaseColumn {
  readonly name: string;
  readonly dictionary: readonly string[];
  readonly codes: Uint32Array;
  readonly via: Uint32Array | null;
  /** Write numbers as numbers in workbooks. */
  readonly numeric: boolean;
}

export interface ReleaseTable {
  readonly rowCount: number;
  readonly columns: readonly ReleaseColumn[];
}

const BLOCK_ROWS = 65536;

/** A file written front to back that has taken the bytes when `write` returns (HashedFileWriter): the writer reuses its buffer. */
export interface SyncByteSink {
  write(data: Uint8Array): void;
}

/**
 * Writes every row as the concatenation of its cells' bytes, each column's cell bytes made once
 * per dictionary entry (cells[column][code]): the CSV, SPSS and Stata writers' data sections.
 */
export function writeRowCells(out: SyncByteSink, table: ReleaseTable, cells: readonly (readonly Uint8Array[])[]): void {
  const columns = cells.map(cellWords);
  const chunk = new ByteChunks();
  for (const block of codeBlocks(table)) chunk.putRows(columns, block.codes, block.count, out);
  chunk.flushTo(out);
}

/**
 * The released codes a block of rows at a time, one array per column. Gathering
 * a column at a time through `via` (random reads the processor overlaps) and
 * then writing rows from the gathered arrays was five times faster than reading
 * each cell through `via` row by row; columns packed together (packed-codes.ts)
 * are gathered once per pack, and columns another reader gathered whole
 * (releasedCodes) are read from there.
 */
export function* codeBlocks(table: ReleaseTable, first = 0, end = table.rowCount): Generator<{ readonly start: number; readonly count: number; readonly codes: readonly Uint32Array[] }> {
  const size = Math.min(BLOCK_ROWS, end - first);
  const kept = table.columns.map((c) => gatheredCodes(c, table.rowCount));
  const gather = blockGatherer(table, kept, size);
  const scratch = kept.map((whole) => (whole ? EMPTY : new Uint32Array(size)));
  for (let start = first; start < end; start += BLOCK_ROWS) {
    const count = Math.min(BLOCK_ROWS, end - start);
    gather(start, count, scratch);
    const codes = scratch.map((out, j) => {
      const whole = kept[j];
      if (whole) return whole.subarray(start, start + count);
      return count === out.length ? out : out.subarray(0, count);
    });
    yield { start, count, codes };
  }
}

const EMPTY = new Uint32Array(0);

/**
 * Every column's codes in released-row order, whole (released-codes.ts): gathered here in one pass
 * over the packs for the columns no reader has gathered yet, and kept for the next reader. Shared
 * arrays (in shared memory, so another thread is handed them without a copy): a reader must not
 * write into them.
 */
export function releasedCodes(table: ReleaseTable): readonly Uint32Array[] {
  const rows = table.rowCount;
  const kept = table.columns.map((c) => gatheredCodes(c, rows));
  if (kept.every((k) => k)) return kept as Uint32Array[];
  // In shared memory: the helper threads that read them (the risk profile, the workbook's sheets) are handed the same arrays, not copies.
  const out = table.columns.map((_, j) => kept[j] ?? new Uint32Array(new SharedArrayBuffer(rows * Uint32Array.BYTES_PER_ELEMENT)));
  const gather = blockGatherer(table, kept, Math.min(BLOCK_ROWS, rows));
  for (let start = 0; start < rows; start += BLOCK_ROWS) {
    const count = Math.min(BLOCK_ROWS, rows - start);
    // A column gathered already gets an empty target: nothing is written into a shared array.
    gather(start, count, out.map((codes, j) => (kept[j] ? EMPTY : codes.subarray(start, start + count))));
  }
  table.columns.forEach((c, j) => {
    if (!kept[j]) keepGatheredCodes(c, out[j]!);
  });
  return out;
}

/**
 * Gathers released rows start … start + count − 1 of every column not gathered whole (`kept`) into
 * outs[column] (at least `count` long; an empty array for a column kept): by pack where the column
 * is packed (read once per pack, then unpacked), else through its own `via`.
 */
function blockGatherer(table: ReleaseTable, kept: readonly (Uint32Array | undefined)[], size: number): (start: number, count: number, outs: readonly Uint32Array[]) => void {
  const packs = kept.every((k) => k) ? [] : codePacks(table).filter((p) => p.columns.some((j) => !kept[j]));
  const inPack = new Set(packs.flatMap((p) => p.columns));
  const scratch = new Uint32Array(packs.length > 0 ? size : 0);
  return (start, count, outs) => {
    for (const pack of packs) {
      gatherInto(scratch, pack.packed, pack.via, start, count);
      unpackFields(pack, scratch, count, outs);
    }
    table.columns.forEach((c, j) => {
      if (!kept[j] && !inPack.has(j)) gatherInto(outs[j]!, c.codes, c.via!, start, count);
    });
  };
}

function gatherInto(out: Uint32Array, codes: Uint32Array, via: Uint32Array, start: number, count: number): void {
  for (let i = 0; i < count; i++) out[i] = codes[via[start + i]!]!;
}

declare const compactedBrand: unique symbol;

/**
 * A released table whose dictionaries hold exactly the values its rows show, numbered in the order
 * the rows first show them. Only `compactReleaseTable` makes one, and every writer of a release
 * takes one: a writer that formats a whole dictionary (the workbook's shared strings, a Parquet
 * dictionary page, SPSS/Stata value labels, a string width or a column's type chosen from every
 * entry) then cannot publish a value, or a fact about a value, of a record the method suppressed
 * or did not sample. The order makes the files a function of the released rows alone, so verify
 * can write them again from the CSV and compare bytes.
 */
export type CompactTable = ReleaseTable & { readonly [compactedBrand]: true };

const UNSEEN = 0xffffffff;

/** The table with every dictionary cut to the values its released rows hold, in order of first appearance. */
export function compactReleaseTable(table: ReleaseTable): CompactTable {
  const columns = table.columns.map((column) => compactColumn(column, table.rowCount));
  return { rowCount: table.rowCount, columns } as unknown as CompactTable;
}

function compactColumn(column: ReleaseColumn, rowCount: number): ReleaseColumn {
  const { codes, via, dictionary } = column;
  const renumber = new Uint32Array(dictionary.length).fill(UNSEEN);
  const kept: string[] = [];
  // Code 0 is the empty value wherever the column has one (the missing code of every table), whether
  // or not a row shows it: an empty cell reveals nothing, readers number it 0 too, and writers store
  // code 0 as missing (a Parquet null). A CSV cannot tell an empty text from a missing value, so
  // verify, which reads the CSV back, can write the same file only if every empty value is code 0.
  const empty = dictionary.indexOf('');
  if (empty >= 0) {
    renumber[empty] = 0;
    kept.push('');
  }
  let identity = empty <= 0;
  // Once every entry is seen the later rows can add nothing: most columns hold few values, all
  // shown within the first rows, and the rest of the scan (random reads through `via`) is skipped.
  for (let r = 0; r < rowCount && kept.length < dictionary.length; r++) {
    const code = codes[via ? via[r]! : r]!;
    if (renumber[code] !== UNSEEN) continue;
    if (code !== kept.length) identity = false;
    renumber[code] = kept.length;
    kept.push(dictionary[code]!);
  }
  // Numbers are written as numbers when the released values are numbers, whatever the input's other
  // records held: a column typed as text by a record the method withheld would tell of that record.
  const numeric = column.numeric || releasedNumbers(kept);
  if (identity && kept.length === dictionary.length) return numeric === column.numeric ? column : { ...column, numeric };
  // Entries of rows that are not released (via skips them) stay unseen; no released row reads them.
  const compacted = new Uint32Array(codes.length);
  for (let i = 0; i < codes.length; i++) {
    const code = renumber[codes[i]!]!;
    compacted[i] = code === UNSEEN ? 0 : code;
  }
  const oldCode = new Uint32Array(kept.length);
  renumber.forEach((code, old) => {
    if (code !== UNSEEN) oldCode[code] = old;
  });
  noteRenumbering(column, compacted, oldCode);
  return { ...column, dictionary: kept, codes: compacted, numeric };
}

/** Whether every released value other than the empty one is an integer or a decimal (as an input column is typed). */
function releasedNumbers(values: readonly string[]): boolean {
  const present = values.filter((v) => v !== '');
  if (present.length === 0) return false;
  const type = inferType(['', ...present]);
  return type === 'integer' || type === 'decimal';
}

/**
 * The table to hand to another thread: each column's codes in released-row order (releasedCodes),
 * no `via` and no codes of rows it does not release. The same released values, so a writer given it
 * writes the same bytes.
 */
export function gatheredTable(table: CompactTable): CompactTable {
  const codes = releasedCodes(table);
  return { rowCount: table.rowCount, columns: table.columns.map((c, j) => ({ ...c, codes: codes[j]!, via: null })) } as unknown as CompactTable;
}

/** A table posted from another thread where it was a CompactTable (gatheredTable): a structured clone keeps what it holds, not its type. */
export function receivedCompactTable(table: ReleaseTable): CompactTable {
  return table as CompactTable;
}
