/**
 * The structure of a SAS data set (.sas7bdat), from the published descriptions of the format
 * (M. Shotwell and C. Cummins, "SAS7BDAT Database Binary Format"; ReadStat's and pandas' readers):
 * a header, then pages of one size. Meta and mix pages hold subheaders (row size, column size,
 * column text, names, attributes, formats and labels) and, in a compressed file, the rows, one
 * subheader each; data and mix pages hold rows side by side. This module reads the header and the
 * pages into the metadata and the places of the rows; sas7bdat-reader.ts decodes the rows.
 * Every offset, length and count comes from the file and is checked before it is used.
 */

const MAGIC = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xc2, 0xea, 0x81, 0x60, 0xb3, 0x14, 0x11, 0xcf, 0xbd, 0x92, 0x08, 0x00, 0x09, 0xc7, 0x31, 0x8c, 0x18, 0x1f, 0x10, 0x11];

const SIGNATURE = {
  rowSize: 0xf7f7f7f7,
  columnSize: 0xf6f6f6f6,
  counts: 0xfffffc00,
  format: 0xfffffbfe,
  attributes: 0xfffffffc,
  text: 0xfffffffd,
  list: 0xfffffffe,
  name: 0xffffffff,
} as const;

/** Pointer compression codes: the subheader is as written, a truncated copy to skip, or a compressed row. */
const POINTER_PLAIN = 0;
const POINTER_TRUNCATED = 1;
const POINTER_COMPRESSED = 4;

/** Whether these first bytes start a SAS data set, whatever the file's name. */
export function isSas7bdatFile(head: Uint8Array): boolean {
  return head.length >= MAGIC.length && MAGIC.every((b, i) => head[i] === b);
}

/** How the file lays out its numbers: the word size and byte order of the machine that wrote it. */
export class Layout {
  readonly intSize: 4 | 8;
  /** Where a page's type, block count and subheader count sit (16 or 32), then the pointers at +8. */
  readonly pageBit: number;
  readonly pointerSize: number;
  constructor(
    private readonly bytes: Buffer,
    readonly u64: boolean,
    readonly little: boolean,
    private readonly fail: (message: string) => never,
  ) {
    this.intSize = u64 ? 8 : 4;
    this.pageBit = u64 ? 32 : 16;
    this.pointerSize = u64 ? 24 : 12;
  }
  u16(at: number): number {
    return this.little ? this.bytes.readUInt16LE(at) : this.bytes.readUInt16BE(at);
  }
  u32(at: number): number {
    return this.little ? this.bytes.readUInt32LE(at) : this.bytes.readUInt32BE(at);
  }
  /** A 4- or 8-byte count or offset, as the word size says. */
  word(at: number): number {
    if (!this.u64) return this.u32(at);
    const value = this.little ? this.bytes.readBigUInt64LE(at) : this.bytes.readBigUInt64BE(at);
    if (value > BigInt(Number.MAX_SAFE_INTEGER)) this.fail(`the SAS data set holds an impossible size or offset at byte ${at}; it is damaged`);
    return Number(value);
  }
  /**
   * A subheader's signature: 4 bytes, or 8 in a u64 file, where the meaningful half is the low one
   * (the other is 0 or all ones, and some writers leave other bytes there).
   */
  signature(at: number): number[] {
    if (!this.u64) return [this.u32(at)];
    const first = this.u32(at);
    const second = this.u32(at + 4);
    return this.little ? [first, second] : [second, first];
  }
}

export interface TextRef {
  readonly index: number;
  readonly offset: number;
  readonly length: number;
}

export interface ColumnAttributes {
  readonly offset: number;
  readonly width: number;
  readonly numeric: boolean;
}

/**
 * Where rows are: side by side on a page, compressed in a subheader, or in a subheader as written
 * (a compressed file's row that did not shrink).
 */
export type RowSource =
  | { readonly kind: 'rows'; readonly at: number; readonly count: number; readonly end: number }
  | { readonly kind: 'compressed'; readonly at: number; readonly length: number }
  | { readonly kind: 'single'; readonly at: number; readonly length: number };

export interface Metadata {
  rowLength?: number;
  rowCount?: number;
  mixPageRows?: number;
  columnCount?: number;
  readonly texts: Buffer[];
  readonly names: TextRef[];
  readonly attributes: ColumnAttributes[];
  readonly formats: { readonly format: TextRef; readonly label: TextRef }[];
}

/** What the header and pages say: the layout, the encoding code, the metadata and where the rows are. */
export interface Structure {
  readonly layout: Layout;
  /** SAS's number for the text encoding (header byte 70). */
  readonly encoding: number;
  readonly meta: Metadata;
  readonly sources: readonly RowSource[];
  readonly compression: 'rle' | 'rdc' | undefined;
}

export function readStructure(bytes: Buffer, fail: (message: string) => never): Structure {
  if (!isSas7bdatFile(bytes)) fail('this is not a SAS data set (its first bytes are not the SAS7BDAT magic number)');
  if (bytes.length < 288) fail('the SAS data set is shorter than its header; it is truncated');
  // Byte 32 says a u64 (64-bit) layout, byte 35 whether 4 bytes of padding precede the timestamps.
  const u64 = bytes[32] === 0x33;
  const align = bytes[35] === 0x33 ? 4 : 0;
  if (bytes[37] !== 0 && bytes[37] !== 1) fail(`the SAS data set names an unknown byte order (${bytes[37]}); it is damaged`);
  const layout = new Layout(bytes, u64, bytes[37] === 1, fail);

  const headerLength = layout.u32(196 + align);
  const pageLength = layout.u32(200 + align);
  const pageCount = layout.word(204 + align);
  if (headerLength < 1024 || pageLength < 1024 || pageLength > 1 << 24) fail(`the SAS data set declares a header of ${headerLength} bytes and pages of ${pageLength}; it is damaged`);
  if (headerLength + pageCount * pageLength > bytes.length) fail(`the SAS data set declares ${pageCount} pages of ${pageLength} bytes but ends before them; it is truncated`);

  const meta: Metadata = { texts: [], names: [], attributes: [], formats: [] };
  const found: RowSource[] = [];
  for (let p = 0; p < pageCount; p++) readPage(bytes, layout, headerLength + p * pageLength, pageLength, meta, found, fail);
  // The first column text names the compression; files that do not still mark compressed rows as such.
  const compression = meta.texts.length > 0 ? compressionOf(meta.texts[0]!) : undefined;
  const compressed = compression !== undefined || found.some((s) => s.kind === 'compressed');
  // A subheader without a known signature is a row only in a compressed file; elsewhere it is something this reader need not know.
  const sources = compressed ? found : found.filter((s) => s.kind !== 'single');
  return { layout, encoding: bytes[70]!, meta, sources, compression };
}

/**
 * One page: its subheaders update the metadata, its rows (side by side on data and mix pages, one
 * per subheader in a compressed file) are noted in file order to be decoded once the columns are known.
 */
function readPage(bytes: Buffer, layout: Layout, page: number, pageLength: number, meta: Metadata, sources: RowSource[], fail: (message: string) => never): void {
  const type = layout.u16(page + layout.pageBit);
  const blockCount = layout.u16(page + layout.pageBit + 2);
  const subheaderCount = layout.u16(page + layout.pageBit + 4);
  // Pages with the 0x9000 bits set ("comp") index the data pages; nothing to read there.
  if ((type & 0x9000) === 0x9000) return;
  // Bit 0x80 marks a page holding observations deleted in SAS (types 128, 384, 640), flagged in a
  // bitmap whose place no published description gives reliably. Reading them as records would
  // release deleted data, and the declared row count leaves them out: refuse instead.
  if ((type & 0x0080) !== 0) fail(`the SAS data set holds observations marked deleted, which Custos cannot yet tell from the others; copy it in SAS (DATA copy; SET original; RUN;) and read the copy`);
  const kind = type & 0x0f00;
  const rowsAt = page + layout.pageBit + 8;
  const pageEnd = page + pageLength;
  if (kind === 0x0100) {
    // A data page: its block count is its number of rows, each within the page.
    if (meta.rowLength === undefined) fail(`the SAS data set has rows (at byte ${page}) before it says how long they are; it is damaged`);
    const room = Math.floor((pageEnd - rowsAt) / meta.rowLength!);
    sources.push({ kind: 'rows', at: rowsAt, count: Math.min(blockCount, room), end: pageEnd });
    return;
  }
  if (kind !== 0 && kind !== 0x0200 && kind !== 0x0400) fail(`the SAS data set has a page of unknown type ${type} at byte ${page}; it is damaged`);
  const pointersEnd = rowsAt + subheaderCount * layout.pointerSize;
  if (pointersEnd > pageEnd) fail(`a page of the SAS data set (at byte ${page}) lists more subheaders than it can hold; it is damaged`);
  // Subheaders follow one another on their page, so together they fit in what the pointers leave.
  // Pointers crafted to share one large subheader had it read again for each: an 8 MB file listed
  // billions of column names and ran out of memory.
  const room = pageEnd - pointersEnd;
  let used = 0;
  for (let i = 0; i < subheaderCount; i++) {
    const pointer = rowsAt + i * layout.pointerSize;
    const offset = layout.word(pointer);
    const length = layout.word(pointer + layout.intSize);
    const pointerCompression = bytes[pointer + 2 * layout.intSize]!;
    const pointerType = bytes[pointer + 2 * layout.intSize + 1]!;
    if (length === 0 || pointerCompression === POINTER_TRUNCATED) continue;
    if (offset < pointersEnd - page || offset + length > pageLength) fail(`a subheader of the SAS data set points outside its page (at byte ${page}); the file is damaged`);
    used += length;
    if (used > room) fail(`the subheaders of a page of the SAS data set (at byte ${page}) overlap, together longer than the page; the file is damaged`);
    const at = page + offset;
    if (pointerCompression === POINTER_COMPRESSED) {
      sources.push({ kind: 'compressed', at, length });
      continue;
    }
    if (pointerCompression !== POINTER_PLAIN) fail(`the SAS data set uses subheader compression ${pointerCompression}, which Custos does not know`);
    const known = length >= layout.intSize ? layout.signature(at).find(isKnownSignature) : undefined;
    if (known === undefined) {
      // A row that did not shrink is stored as written, in a subheader without a signature.
      if (pointerType === 1) sources.push({ kind: 'single', at, length });
      continue;
    }
    readSubheader(known, bytes, layout, at, length, meta, fail);
  }
  if (kind === 0x0200) {
    // Rows of a mix page follow the pointers at the next 8-byte boundary. Its blocks are its
    // subheaders and its rows; the row size subheader says how many rows a mix page can hold
    // (SAS's iris: 150 rows, room for 1594), the bound ReadStat and pandas read to.
    const start = rowsAt + subheaderCount * layout.pointerSize;
    const aligned = start + ((start - page) % 8 === 0 ? 0 : 8 - ((start - page) % 8));
    const rowLength = meta.rowLength ?? 0;
    if (rowLength > 0) {
      const room = Math.floor((pageEnd - aligned) / rowLength);
      const capacity = meta.mixPageRows || room;
      const count = Math.min(blockCount > subheaderCount ? blockCount - subheaderCount : capacity, capacity, room);
      if (count > 0) sources.push({ kind: 'rows', at: aligned, count, end: pageEnd });
    }
  }
}

function isKnownSignature(signature: number): boolean {
  return signature === SIGNATURE.rowSize || signature === SIGNATURE.columnSize || signature === SIGNATURE.counts || signature === SIGNATURE.format || ((signature & 0xfffffff8) >>> 0) === 0xfffffff8;
}

function readSubheader(signature: number, bytes: Buffer, layout: Layout, at: number, length: number, meta: Metadata, fail: (message: string) => never): void {
  const int = layout.intSize;
  const need = (minimum: number, what: string): void => {
    if (length < minimum) fail(`the SAS data set's ${what} subheader is too short; the file is damaged`);
  };
  const ref = (from: number): TextRef => ({ index: layout.u16(from), offset: layout.u16(from + 2), length: layout.u16(from + 4) });
  switch (signature) {
    case SIGNATURE.rowSize: {
      need(16 * int, 'row size');
      meta.rowLength = layout.word(at + 5 * int);
      meta.rowCount = layout.word(at + 6 * int);
      meta.mixPageRows = layout.word(at + 15 * int);
      if (meta.rowLength === 0 || meta.rowLength > 1 << 24) fail(`the SAS data set declares rows of ${meta.rowLength} bytes; it is damaged`);
      return;
    }
    case SIGNATURE.columnSize:
      need(2 * int, 'column size');
      meta.columnCount = layout.word(at + int);
      return;
    case SIGNATURE.text:
      need(int + 2, 'column text');
      // Text references count from the end of the signature.
      meta.texts.push(bytes.subarray(at + int, at + length));
      return;
    case SIGNATURE.name: {
      const count = Math.floor((length - 2 * int - 12) / 8);
      for (let i = 0; i < count; i++) meta.names.push(ref(at + int + 8 + 8 * i));
      return;
    }
    case SIGNATURE.attributes: {
      const size = int + 8;
      const count = Math.floor((length - 2 * int - 12) / size);
      for (let i = 0; i < count; i++) {
        const vector = at + int + 8 + i * size;
        const type = bytes[vector + int + 6];
        const width = layout.u32(vector + int);
        if (type !== 1 && type !== 2) fail(`variable ${meta.attributes.length + 1} of the SAS data set has an unknown type ${type}; the file is damaged`);
        // SAS character variables hold at most 32,767 bytes: a wider one is crafted (compressed rows make it cheap to claim).
        if (type === 1 ? width < 2 || width > 8 : width === 0 || width > 32_767) fail(`variable ${meta.attributes.length + 1} of the SAS data set has an impossible width ${width}; the file is damaged`);
        meta.attributes.push({ offset: layout.word(vector), width, numeric: type === 1 });
      }
      return;
    }
    case SIGNATURE.format:
      need(3 * int + 34, 'format and label');
      meta.formats.push({ format: ref(at + 3 * int + 22), label: ref(at + 3 * int + 28) });
      return;
    default:
      // Subheader counts, the column list and the unnamed ones: nothing a reader needs.
      return;
  }
}

/**
 * The compression the first column text names: SAS writes the literal at its 12th byte (blanks
 * when none), ReadStat further on in the same text, where pandas also looks for it.
 */
function compressionOf(firstText: Buffer): 'rle' | 'rdc' | undefined {
  const literal = firstText.subarray(12, 20).toString('latin1');
  if (literal === 'SASYZCRL') return 'rle';
  if (literal === 'SASYZCR2') return 'rdc';
  if (firstText.includes('SASYZCR2', 0, 'latin1')) return 'rdc';
  if (firstText.includes('SASYZCRL', 0, 'latin1')) return 'rle';
  return undefined;
}
