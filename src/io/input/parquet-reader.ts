import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { basename } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { ColumnMetaData, Compressors, DataReader, DecodedArray, FileMetaData, PageHeader, SchemaElement } from 'hyparquet';
import { lazyRequire } from '../lazy-require.js';
import { sha256OfFile } from '../file-checksum.js';
import { ColumnCodes } from './column-codes.js';
import type { ImportedTable, ImportOptions, VariableMetadata } from './import-types.js';
import { InputError } from './input-error.js';
import { decodeDataPage, readPlainValues, type DecodedPage, type PageColumn } from './parquet-pages.js';
import { NotUtf8Error, UnsupportedTypeError, valueTextOf, type ValueText } from './parquet-values.js';
import { checkHeader } from './table-builder.js';
import { MAX_CELLS, MAX_COLUMNS, TableTooLargeError, TextBudget } from './table-limits.js';
import { formatCount } from '../../common/format/numbers.js';

/**
 * Apache Parquet files, read with hyparquet's synchronous parts: its footer parser and its page
 * decoders (decompression, levels, plain, dictionary and delta encodings). Its public reading API is
 * asynchronous, but Custos' readers are synchronous (they run in a worker and every caller of
 * readTable is synchronous), so this module walks the file itself: a column chunk at a time, read
 * with readSync, its pages decoded and turned into dictionary codes at once. Memory is the table's
 * plus one column chunk.
 *
 * Loaded on first use: hyparquet and the decompressors cost 0.1–0.2 s to load, which commands that
 * read no Parquet file need not pay. They are ES modules, which Node (≥ 20.19) loads with require.
 */
const metadataModule = lazyRequire<typeof import('hyparquet/src/metadata.js')>('hyparquet/src/metadata.js');
const columnModule = lazyRequire<typeof import('hyparquet/src/column.js')>('hyparquet/src/column.js');
const pageModule = lazyRequire<typeof import('hyparquet/src/datapage.js')>('hyparquet/src/datapage.js');
const compressorsModule = lazyRequire<typeof import('hyparquet-compressors')>('hyparquet-compressors');

/** "PAR1" at both ends; an encrypted footer ends in "PARE". */
const MAGIC = 'PAR1';
const ENCRYPTED_MAGIC = 'PARE';


/** A page larger than this is not one a writer makes: a damaged header, refused before allocating it. */
const MAX_PAGE_BYTES = 1 << 30;

export function isParquetFile(head: Uint8Array): boolean {
  return head.length >= 4 && Buffer.from(head.buffer, head.byteOffset, 4).toString('latin1') === MAGIC;
}

/**
 * Snappy is hyparquet's own; GZIP and BROTLI go to Node's zlib (native, and its errors carry the
 * codes the damage check knows); ZSTD and LZ4 to hyparquet-compressors, since Node 20 has neither.
 */
function compressors(): Compressors {
  // A page inflates to no more than the size its header declares (a small GZIP page of zeros could
  // otherwise take gigabytes before the reader sees it is wrong).
  const inflate = (decompress: (input: Uint8Array, options: { maxOutputLength: number }) => Buffer) => (input: Uint8Array, outputLength: number) => {
    const out = decompress(input, { maxOutputLength: Math.max(1, outputLength) });
    return new Uint8Array(out.buffer, out.byteOffset, out.length);
  };
  return {
    GZIP: inflate(gunzipSync),
    BROTLI: inflate(brotliDecompressSync),
    ZSTD: (input) => compressorsModule().decompressZstd(input),
    LZ4: (input, length) => compressorsModule().decompressLz4(input, length),
    LZ4_RAW: (input, length) => compressorsModule().decompressLz4Raw(input, length),
  };
}

/** The open file, read by byte ranges. */
class ParquetFile {
  readonly size: number;
  constructor(
    private readonly fd: number,
    readonly name: string,
  ) {
    this.size = fstatSync(fd).size;
  }
  read(start: number, end: number): Buffer {
    if (!(start >= 0 && end >= start && end <= this.size)) throw this.damaged(`a part lies outside the file (bytes ${start}–${end} of ${this.size})`);
    const buffer = Buffer.allocUnsafe(end - start);
    let done = 0;
    while (done < buffer.length) {
      const n = readSync(this.fd, buffer, done, buffer.length - done, start + done);
      if (n === 0) throw this.damaged('it ended while being read');
      done += n;
    }
    return buffer;
  }
  damaged(why: string): InputError {
    return new InputError(`the Parquet file is damaged and cannot be read (${why})`, this.name);
  }
  /** Runs one of hyparquet's decoders: whatever it throws on bad bytes means a damaged file. */
  decode<T>(what: string, body: () => T): T {
    try {
      return body();
    } catch (error) {
      if (error instanceof InputError || error instanceof NotUtf8Error) throw error;
      throw this.damaged(`${what}: ${(error as Error).message}`);
    }
  }
}

export function readParquet(path: string, options: ImportOptions): ImportedTable {
  return readParquetFile(path, options).imported;
}

/**
 * Everything a Parquet file says, as text to search for what must not be published: the writer's
 * name and key-value metadata of its footer, the column names and every distinct value.
 */
export function parquetSearchableText(path: string): string {
  const { imported, metadata } = readParquetFile(path, { missing: [], onBadRow: 'error' });
  return [...footerStrings(metadata), ...imported.table.columns.flatMap((c) => [c.name, ...c.dictionary])].join('\n');
}

/** A Parquet file's table, and the strings of its footer (the writer, key-value metadata) apart from its values. */
export function parquetTableAndFooter(path: string): { table: ImportedTable['table']; footer: string } {
  const { imported, metadata } = readParquetFile(path, { missing: [], onBadRow: 'error' });
  return { table: imported.table, footer: footerStrings(metadata).join('\n') };
}

function footerStrings(metadata: FileMetaData): string[] {
  return [metadata.created_by ?? '', ...(metadata.key_value_metadata ?? []).flatMap((kv) => [kv.key, kv.value ?? ''])];
}

function readParquetFile(path: string, options: ImportOptions): { imported: ImportedTable; metadata: FileMetaData } {
  const name = basename(path);
  const fd = openSync(path, 'r');
  try {
    const file = new ParquetFile(fd, name);
    const metadata = readFooter(file);
    const leaves = flatColumns(metadata, file);
    const table = readRows(file, metadata, leaves, options);
    return { imported: { ...table, sha256: sha256OfFile(path), bytes: file.size }, metadata };
  } finally {
    closeSync(fd);
  }
}

/** The largest footer read: its metadata takes tens of times its bytes in memory once decoded. */
const MAX_FOOTER_BYTES = 16 * 1024 * 1024;

function readFooter(file: ParquetFile): FileMetaData {
  if (file.size < 12) throw file.damaged(`it has ${file.size} bytes, fewer than a Parquet file's frame`);
  const tail = file.read(file.size - 8, file.size);
  const magic = tail.toString('latin1', 4, 8);
  if (magic === ENCRYPTED_MAGIC) throw new InputError('the Parquet file is encrypted; Custos reads unencrypted files only', file.name);
  if (magic !== MAGIC) throw file.damaged('it does not end with the Parquet mark; it is truncated');
  const length = tail.readUInt32LE(0);
  if (length > file.size - 12) throw file.damaged(`its footer claims ${length} bytes, more than the file holds`);
  if (length > MAX_FOOTER_BYTES) throw new InputError(`its footer has ${formatCount(length)} bytes, more than the ${MAX_FOOTER_BYTES / 1024 / 1024} MiB Custos reads (a footer of 100,000 columns is about 2 MB)`, file.name);
  const footer = file.read(file.size - 8 - length, file.size);
  return file.decode('footer', () => metadataModule().parquetMetadata(footer, { geoparquet: false }));
}

interface Leaf {
  readonly element: SchemaElement;
  readonly value: ValueText;
  readonly optional: boolean;
}

/** The columns, each a flat leaf of the root; a nested or repeated one is refused by name. */
function flatColumns(metadata: FileMetaData, file: ParquetFile): Leaf[] {
  // Each schema element is a column or holds some: a schema past the limit is refused before the tree is built.
  if (metadata.schema.length - 1 > MAX_COLUMNS) throw TableTooLargeError.columns(metadata.schema.length - 1);
  const root = file.decode('schema', () => metadataModule().parquetSchema(metadata));
  if (root.children.length === 0) throw new InputError('the Parquet file declares no columns', file.name);
  const header = root.children.map((c) => c.element.name);
  const problem = checkHeader(header, 'the Parquet schema');
  if (problem) throw new InputError(problem, file.name);
  return root.children.map((child) => {
    const { element } = child;
    if (child.children.length > 0 || element.repetition_type === 'REPEATED' || element.type === undefined) {
      const kind = element.logical_type?.type === 'LIST' || element.converted_type === 'LIST' || element.repetition_type === 'REPEATED' ? 'a list' : element.logical_type?.type === 'MAP' || element.converted_type === 'MAP' ? 'a map' : 'a group of fields';
      throw new InputError(`the column “${element.name}” is nested (${kind}); Custos reads flat tables only: flatten it (one column per field) or leave it out before export`, file.name);
    }
    try {
      return { element, value: valueTextOf(element), optional: element.repetition_type !== 'REQUIRED' };
    } catch (error) {
      if (error instanceof UnsupportedTypeError) throw new InputError(`the column “${element.name}” holds ${error.message}, which Custos cannot read; leave it out or convert it to text before export`, file.name);
      throw error;
    }
  });
}

function readRows(file: ParquetFile, metadata: FileMetaData, leaves: readonly Leaf[], options: ImportOptions): Omit<ImportedTable, 'sha256' | 'bytes'> {
  const declared = Number(metadata.num_rows);
  const sum = metadata.row_groups.reduce((total, group) => total + Number(group.num_rows), 0);
  if (sum !== declared) throw file.damaged(`its row groups hold ${sum} rows, its footer says ${declared}`);
  // Codes are 32-bit: a table of more rows cannot be held (and such a claim in a small file is damage).
  if (declared > 0xffff_ffff) throw file.damaged(`it claims ${declared} rows`);
  // Run-length encoding lets a few bytes declare millions of values, as a zip bomb does: a table
  // whose codes alone would take 8 GiB is refused before any is allocated.
  if (declared * leaves.length > MAX_CELLS) {
    throw new InputError(`the Parquet file declares ${formatCount(declared)} rows × ${leaves.length} columns, more cells than Custos holds in memory (${formatCount(MAX_CELLS)}); split it or leave columns out`, file.name);
  }
  const text = new TextBudget();
  const columns = leaves.map((leaf) => new ColumnCodes(leaf.element.name, options.missing, text));
  const chunkBytes = metadata.row_groups.reduce((total, group) => total + group.columns.reduce((t, c) => t + Number(c.meta_data?.total_compressed_size ?? 0), 0), 0);
  let bytesDone = 0;
  const decompress = compressors();
  for (const group of metadata.row_groups) {
    const rows = Number(group.num_rows);
    if (group.columns.length !== leaves.length) throw file.damaged(`a row group has ${group.columns.length} column chunks for ${leaves.length} columns`);
    group.columns.forEach((chunk, j) => {
      const leaf = leaves[j]!;
      const meta = chunk.meta_data;
      if (chunk.file_path) throw new InputError('the Parquet file keeps its data in other files; Custos reads single-file Parquet only', file.name);
      if (!meta) throw file.damaged(`column “${leaf.element.name}” has no metadata in a row group`);
      if (meta.path_in_schema.length !== 1 || meta.path_in_schema[0] !== leaf.element.name) throw file.damaged(`a column chunk belongs to “${meta.path_in_schema.join('.')}” where “${leaf.element.name}” was expected`);
      if (Number(meta.num_values) !== rows) throw file.damaged(`column “${leaf.element.name}” has ${meta.num_values} values in a row group of ${rows} rows`);
      const before = columns[j]!.length;
      readChunk(file, meta, leaf, columns[j]!, decompress);
      if (columns[j]!.length - before !== rows) throw file.damaged(`column “${leaf.element.name}” decoded to ${columns[j]!.length - before} values in a row group of ${rows} rows`);
      bytesDone += Number(meta.total_compressed_size);
      options.onProgress?.(bytesDone, chunkBytes);
    });
  }
  const variables: VariableMetadata[] = leaves.map((leaf, j) => ({
    name: leaf.element.name,
    valueLabels: [],
    declaredMissing: columns[j]!.nulls,
    ...(leaf.value.dates ? { dates: leaf.value.dates } : {}),
  }));
  return { table: { rowCount: declared, columns: columns.map((c) => c.build()) }, format: 'parquet', encoding: 'utf-8', rejectedRows: [], rejectedRowCount: 0, variables };
}

/** One column chunk: its dictionary page (if any) and data pages, version 1 or 2. */
function readChunk(file: ParquetFile, meta: ColumnMetaData, leaf: Leaf, column: ColumnCodes, decompress: Compressors): void {
  const name = leaf.element.name;
  // Some writers leave dictionary_page_offset at 0; the chunk then starts at its first data page.
  const start = Number(meta.dictionary_page_offset || meta.data_page_offset);
  const end = start + Number(meta.total_compressed_size);
  if (start < 4 || end > file.size - 8) throw file.damaged(`column “${name}” lies outside the data (bytes ${start}–${end})`);
  const bytes = file.read(start, end);
  const reader: DataReader = { view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), offset: 0 };
  if (meta.type !== leaf.element.type) throw file.damaged(`column “${name}” is stored as ${meta.type} but declared ${leaf.element.type}`);
  const pageColumn: PageColumn = { element: leaf.element, optional: leaf.optional, codec: meta.codec, compressors: decompress };
  const text = (value: unknown): string => {
    try {
      return leaf.value.text(value);
    } catch (error) {
      if (error instanceof NotUtf8Error) throw new InputError(`column “${name}” holds bytes that are not UTF-8 text`, file.name);
      throw error;
    }
  };
  let dictionary: FileDictionary | undefined;
  let remaining = Number(meta.num_values);
  while (remaining > 0) {
    if (reader.offset >= bytes.length) throw file.damaged(`column “${name}” ends ${remaining} values early`);
    const header: PageHeader = file.decode(`a page header of column “${name}”`, () => columnModule().parquetHeader(reader));
    const size = header.compressed_page_size;
    if (!(size >= 0 && reader.offset + size <= bytes.length) || !(header.uncompressed_page_size >= 0 && header.uncompressed_page_size <= MAX_PAGE_BYTES)) {
      throw file.damaged(`a page of column “${name}” claims ${size} bytes (${header.uncompressed_page_size} uncompressed)`);
    }
    const page = bytes.subarray(reader.offset, reader.offset + size);
    reader.offset += size;
    const where = `a page of column “${name}”`;
    if (header.type === 'DICTIONARY_PAGE') {
      const count = header.dictionary_page_header?.num_values ?? 0;
      const values = file.decode(where, () => {
        const plain = pageModule().decompressPage(page, header.uncompressed_page_size, meta.codec, decompress);
        return readPlainValues(plain, 0, meta.type, count, leaf.element.type_length);
      });
      dictionary = new FileDictionary(values, column, text);
      continue;
    }
    if (header.type !== 'DATA_PAGE' && header.type !== 'DATA_PAGE_V2') continue; // index pages: nothing to read
    const count = header.type === 'DATA_PAGE' ? header.data_page_header?.num_values : header.data_page_header_v2?.num_values;
    const encoding = header.type === 'DATA_PAGE' ? header.data_page_header?.encoding : header.data_page_header_v2?.encoding;
    if (count === undefined || encoding === undefined || count < 0 || count > remaining) throw file.damaged(`${where} claims ${count} values where ${remaining} remain`);
    const decoded = file.decode(where, () => decodeDataPage(header, page, count, pageColumn));
    if (decoded.indexes && !dictionary) throw file.damaged(`${where} refers to a dictionary the column does not have`);
    appendValues(file, where, column, count, decoded, decoded.indexes ? dictionary! : text);
    remaining -= count;
  }
}

/** Not yet looked up: no code of a column reaches 2^32 − 1. */
const UNRESOLVED = 0xffff_ffff;

/**
 * A column chunk's dictionary page: each entry becomes text and a code of the column once, when a
 * row first uses it, so data pages copy codes; an entry no row uses never enters the column (a
 * writer may keep unused entries, and a value the data do not hold must not count as one).
 */
class FileDictionary {
  private readonly codes: Uint32Array;
  constructor(
    private readonly values: DecodedArray,
    private readonly column: ColumnCodes,
    private readonly text: (value: unknown) => string,
  ) {
    this.codes = new Uint32Array(values.length).fill(UNRESOLVED);
  }
  get size(): number {
    return this.codes.length;
  }
  /** The column's code of entry `index`, or undefined when there is no such entry. */
  code(index: number): number | undefined {
    const code = this.codes[index];
    if (code !== UNRESOLVED) return code;
    const resolved = this.column.code(this.text(this.values[index]));
    this.codes[index] = resolved;
    return resolved;
  }
}

/**
 * A page's values into the column: a definition level other than 1 is a null (a flat optional
 * column's maximum level is 1); values are either dictionary indexes or decoded values.
 */
function appendValues(file: ParquetFile, where: string, column: ColumnCodes, count: number, page: DecodedPage, lookup: FileDictionary | ((value: unknown) => string)): void {
  const { levels } = page;
  const length = page.indexes ? page.indexes.length : (page.values?.length ?? 0);
  let k = 0;
  for (let i = 0; i < count; i++) {
    if (levels && levels[i] !== 1) {
      column.pushNull();
      continue;
    }
    if (k >= length) throw file.damaged(`${where} holds fewer values than its levels say`);
    if (typeof lookup === 'function') {
      column.push(column.code(lookup(page.values![k++])));
      continue;
    }
    const index = page.indexes![k++]!;
    const code = lookup.code(index);
    if (code === undefined) throw file.damaged(`${where} refers to dictionary entry ${index} of ${lookup.size}`);
    column.push(code);
  }
  if (k !== length) throw file.damaged(`${where} holds ${length} values where its levels say ${k}`);
}
