import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { constants, inflateRawSync } from 'node:zlib';
import { lazyRequire } from '../../io/lazy-require.js';

// Which columns a release file stores as numbers. The writers store a column as numbers only when
// the run marked it numeric and every value allows it (xlsx-writer, parquet-writer, sav-writer,
// dta-writer); the CSV cannot say which, so verify reads it from the typed files themselves to
// write them again. A file that says a column is numeric when its values do not allow it is written
// again as text, and its bytes then differ: the mark cannot carry more than that one bit per column.

const metadataModule = lazyRequire<typeof import('hyparquet/src/metadata.js')>('hyparquet/src/metadata.js');

function readAt(path: string, position: number, length: number): Buffer {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const n = readSync(fd, buffer, 0, length, position);
    return buffer.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

function sizeOf(path: string): number {
  const fd = openSync(path, 'r');
  try {
    return fstatSync(fd).size;
  } finally {
    closeSync(fd);
  }
}

/** Per column of a Parquet file Custos wrote: whether it is INT64 or DOUBLE. */
export function parquetNumericColumns(path: string): boolean[] {
  const size = sizeOf(path);
  const tail = readAt(path, Math.max(0, size - 8), 8);
  const footer = tail.readUInt32LE(0);
  if (footer + 8 > size || footer > 16 * 1024 * 1024) throw new Error('its footer length is not that of a Parquet file');
  const bytes = readAt(path, size - footer - 8, footer + 8);
  const metadata = metadataModule().parquetMetadata(new Uint8Array(bytes).buffer);
  return metadata.schema.slice(1).map((e) => e.type === 'INT64' || e.type === 'DOUBLE');
}

/** The entries of a zip archive's central directory: name, method, compressed size and where its local header is. */
export interface ZipEntry {
  readonly name: string;
  readonly method: number;
  readonly compressedSize: number;
  readonly localOffset: number;
}

export function zipEntries(bytes: Buffer): ZipEntry[] {
  let end = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 65535); i--) {
    if (bytes.readUInt32LE(i) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new Error('no zip end-of-directory record');
  const count = bytes.readUInt16LE(end + 10);
  let at = bytes.readUInt32LE(end + 16);
  const entries: ZipEntry[] = [];
  for (let k = 0; k < count; k++) {
    if (bytes.readUInt32LE(at) !== 0x02014b50) throw new Error('a damaged zip directory');
    const nameLength = bytes.readUInt16LE(at + 28);
    const extra = bytes.readUInt16LE(at + 30);
    const comment = bytes.readUInt16LE(at + 32);
    entries.push({ name: bytes.toString('utf8', at + 46, at + 46 + nameLength), method: bytes.readUInt16LE(at + 10), compressedSize: bytes.readUInt32LE(at + 20), localOffset: bytes.readUInt32LE(at + 42) });
    at += 46 + nameLength + extra + comment;
  }
  return entries;
}

/** The start of an entry's inflated content: `compressedPrefix` bytes of its data inflated as far as they go. */
export function zipEntryText(bytes: Buffer, entry: ZipEntry, compressedPrefix = entry.compressedSize): string {
  const at = entry.localOffset;
  const start = at + 30 + bytes.readUInt16LE(at + 26) + bytes.readUInt16LE(at + 28);
  const data = bytes.subarray(start, start + Math.min(compressedPrefix, entry.compressedSize));
  if (entry.method === 0) return data.toString('utf8');
  return inflateRawSync(data, { finishFlush: constants.Z_SYNC_FLUSH }).toString('utf8');
}

/** A row's start, or a cell's: its reference when it has one (a cell without one follows the previous cell of its row). */
const ROW_OR_CELL = /<row r="(\d+)"|<c(?: r="([A-Z]+)\d+")?( t="s")?>/g;

function columnIndex(letters: string): number {
  let n = 0;
  for (const ch of letters) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

/**
 * Per column of a workbook sheet Custos wrote (its part `sheetN.xml`): whether its cells below the
 * header are numbers (no t="s"). Only as much of the sheet is inflated as it takes to see a cell of
 * every column (a column without any is reported as not numeric; it has no value to write either way).
 */
export function xlsxNumericColumns(bytes: Buffer, sheetPart: string, columns: number): boolean[] {
  const entry = zipEntries(bytes).find((e) => e.name === sheetPart);
  if (!entry) throw new Error(`the workbook has no ${sheetPart}`);
  const numeric = new Array<boolean | undefined>(columns).fill(undefined);
  for (let prefix = 1 << 16; ; prefix *= 4) {
    const text = zipEntryText(bytes, entry, prefix);
    let row = '';
    let j = -1;
    for (const match of text.matchAll(ROW_OR_CELL)) {
      if (match[1] !== undefined) {
        row = match[1];
        j = -1;
        continue;
      }
      j = match[2] !== undefined ? columnIndex(match[2]) : j + 1;
      if (row !== '1' && j < columns && numeric[j] === undefined) numeric[j] = match[3] === undefined;
    }
    if (numeric.every((n) => n !== undefined) || prefix >= entry.compressedSize) break;
  }
  return numeric.map((n) => n === true);
}

/** Per column of an SPSS file Custos wrote (variables V1…Vk, their long names in record 7.13): whether it is a numeric variable. */
export function savNumericColumns(path: string, columns: number): boolean[] {
  const bytes = readAt(path, 0, Math.min(sizeOf(path), 64 * 1024 * 1024));
  const byShortName = new Map<string, boolean>();
  let at = 176;
  for (;;) {
    const type = bytes.readInt32LE(at);
    at += 4;
    if (type === 2) {
      const width = bytes.readInt32LE(at);
      const hasLabel = bytes.readInt32LE(at + 4);
      const missing = bytes.readInt32LE(at + 8);
      const name = bytes.toString('latin1', at + 20, at + 28).trimEnd();
      at += 28;
      if (hasLabel) at += 4 + Math.ceil(bytes.readInt32LE(at) / 4) * 4;
      at += Math.abs(missing) * 8;
      if (width !== -1) byShortName.set(name, width === 0);
    } else if (type === 3) {
      const n = bytes.readInt32LE(at);
      at += 4;
      for (let i = 0; i < n; i++) at += 8 + Math.ceil((bytes[at + 8]! + 1) / 8) * 8;
    } else if (type === 4) at += 4 + bytes.readInt32LE(at) * 4;
    else if (type === 6) at += 4 + bytes.readInt32LE(at) * 80;
    else if (type === 7) at += 12 + bytes.readInt32LE(at + 4) * bytes.readInt32LE(at + 8);
    else if (type === 999) break;
    else throw new Error(`a dictionary record of type ${type}, which no SPSS file holds`);
  }
  return Array.from({ length: columns }, (_, j) => byShortName.get(`V${j + 1}`) === true);
}

/** Per column of a Stata 118 file: whether its type is a double or a long. */
export function dtaNumericColumns(path: string, columns: number): boolean[] {
  const head = readAt(path, 0, Math.min(sizeOf(path), 4096 + columns * 2));
  const at = head.indexOf('<variable_types>', 0, 'latin1');
  if (at < 0) throw new Error('no <variable_types> section');
  const start = at + '<variable_types>'.length;
  return Array.from({ length: columns }, (_, j) => {
    const type = head.readUInt16LE(start + 2 * j);
    return type === 65526 || type === 65528;
  });
}
