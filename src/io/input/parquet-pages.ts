import type { Compressors, DecodedArray, PageHeader, SchemaElement } from 'hyparquet';
import { lazyRequire } from '../lazy-require.js';

/**
 * A data page of a flat column, decoded: definition levels (1 = a value, 0 = null; absent for a
 * required column) and either the values or, for dictionary-encoded pages, indexes into the chunk's
 * dictionary.
 *
 * The page layout and the run-length/bit-packed hybrid (levels, dictionary indexes, booleans) are
 * decoded here, into typed arrays sized from the page header: hyparquet's own decoder for them
 * writes runs into growable arrays, so a crafted run length (2^31 repeats in five bytes) grew an
 * array until V8 aborted the process, which no catch can stop. Values of the other encodings go to
 * hyparquet's decoders (plain, delta, byte stream split), whose output is bounded by the count.
 */
export interface DecodedPage {
  readonly levels: Uint8Array | undefined;
  readonly values: DecodedArray | undefined;
  readonly indexes: Uint32Array | undefined;
}

/** Thrown on bytes that cannot be a page; the reader names the file and the column. */
export class PageError extends Error {}

const pageModule = lazyRequire<typeof import('hyparquet/src/datapage.js')>('hyparquet/src/datapage.js');
const plainModule = lazyRequire<typeof import('hyparquet/src/plain.js')>('hyparquet/src/plain.js');
const deltaModule = lazyRequire<typeof import('hyparquet/src/delta.js')>('hyparquet/src/delta.js');
const encodingModule = lazyRequire<typeof import('hyparquet/src/encoding.js')>('hyparquet/src/encoding.js');

export interface PageColumn {
  readonly element: SchemaElement;
  readonly optional: boolean;
  readonly codec: Parameters<typeof import('hyparquet/src/datapage.js').decompressPage>[2];
  readonly compressors: Compressors;
}

export class Bytes {
  constructor(
    readonly bytes: Uint8Array,
    public at = 0,
  ) {}
  get view(): DataView {
    return new DataView(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength);
  }
  u8(): number {
    if (this.at >= this.bytes.length) throw new PageError('a page ends early');
    return this.bytes[this.at++]!;
  }
  u32(): number {
    const v = this.u8() | (this.u8() << 8) | (this.u8() << 16) | (this.u8() << 24);
    return v >>> 0;
  }
  varint(): number {
    let result = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      const byte = this.u8();
      result += (byte & 0x7f) * 2 ** shift;
      if (!(byte & 0x80)) return result;
    }
    throw new PageError('a run header is too long');
  }
}

/**
 * The RLE/bit-packed hybrid of `width`-bit values from bytes [at, end), into `out` (exactly
 * out.length values; a run past it is cut, a stream short of it is damage).
 */
export function readHybrid(source: Bytes, end: number, width: number, out: Uint8Array | Uint32Array): void {
  if (width < 0 || width > 32) throw new PageError(`a bit width of ${width}`);
  const bytes = source.bytes;
  const within = new Bytes(bytes.subarray(0, end), source.at);
  let seen = 0;
  while (seen < out.length) {
    const header = within.varint();
    if (header % 2 === 1) {
      // Bit-packed: groups of 8 values, least significant bit first.
      const groupBytes = Math.floor(header / 2) * width;
      const count = Math.min(Math.floor(header / 2) * 8, out.length - seen);
      seen = unpack(bytes, within.at, end, width, out, seen, count);
      within.at = Math.min(end, within.at + groupBytes);
    } else {
      let value = 0;
      for (let i = 0; i < (width + 7) >> 3; i++) value += within.u8() * 2 ** (8 * i);
      const count = Math.min(header / 2, out.length - seen);
      out.fill(value, seen, seen + count);
      seen += count;
    }
  }
  source.at = end;
}

/**
 * `count` values of `width` bits from byte `at` on, into out[seen…]; bits past `end` (a short last
 * group) are damage. A running accumulator of at most 39 bits stays exact in a double.
 */
function unpack(bytes: Uint8Array, at: number, end: number, width: number, out: Uint8Array | Uint32Array, seen: number, count: number): number {
  if (width === 0) {
    out.fill(0, seen, seen + count);
    return seen + count;
  }
  const unit = 2 ** width;
  if (at + Math.ceil((count * width) / 8) > end) throw new PageError('bit-packed values run past the page');
  let accumulator = 0;
  let bits = 0;
  let scale = 1;
  for (let i = 0; i < count; i++) {
    while (bits < width) {
      accumulator += bytes[at++]! * scale;
      scale *= 256;
      bits += 8;
    }
    const value = accumulator % unit;
    out[seen++] = value;
    accumulator = (accumulator - value) / unit;
    scale /= unit;
    bits -= width;
  }
  return seen;
}

/** Decodes one DATA_PAGE or DATA_PAGE_V2 of `count` values. */
export function decodeDataPage(header: PageHeader, page: Uint8Array, count: number, column: PageColumn): DecodedPage {
  const type = column.element.type;
  if (header.type === 'DATA_PAGE') {
    const daph = header.data_page_header!;
    const body = new Bytes(pageModule().decompressPage(page, header.uncompressed_page_size, column.codec, column.compressors));
    let levels: Uint8Array | undefined;
    if (column.optional) {
      if (daph.definition_level_encoding !== 'RLE') throw new PageError(`definition levels encoded as ${daph.definition_level_encoding}`);
      const length = body.u32();
      if (body.at + length > body.bytes.length) throw new PageError('definition levels run past the page');
      levels = new Uint8Array(count);
      readHybrid(body, body.at + length, 1, levels);
    }
    return decodeValues(daph.encoding, body, present(levels, count), type, column.element.type_length, levels);
  }
  const daph2 = header.data_page_header_v2!;
  const levelBytes = daph2.repetition_levels_byte_length + daph2.definition_levels_byte_length;
  if (daph2.repetition_levels_byte_length !== 0 && !column.optional) throw new PageError('repetition levels in a flat column');
  if (!(levelBytes >= 0 && levelBytes <= page.length)) throw new PageError('levels run past the page');
  const raw = new Bytes(page, daph2.repetition_levels_byte_length);
  let levels: Uint8Array | undefined;
  if (column.optional) {
    levels = new Uint8Array(count);
    readHybrid(raw, levelBytes, 1, levels);
  }
  const rest = page.subarray(levelBytes);
  const body = new Bytes(daph2.is_compressed === false ? rest : pageModule().decompressPage(rest, header.uncompressed_page_size - levelBytes, column.codec, column.compressors));
  return decodeValues(daph2.encoding, body, present(levels, count), type, column.element.type_length, levels);
}

/** Values a page holds: those whose definition level is 1 (a flat optional column's maximum). */
function present(levels: Uint8Array | undefined, count: number): number {
  if (!levels) return count;
  let n = 0;
  for (let i = 0; i < levels.length; i++) if (levels[i] === 1) n++;
  return n;
}

/** The fewest bytes one plain value of a type takes (a byte array: its 4-byte length). */
function plainWidth(type: SchemaElement['type'], typeLength: number | undefined): number {
  switch (type) {
    case 'BOOLEAN':
      return 1 / 8;
    case 'INT32':
    case 'FLOAT':
    case 'BYTE_ARRAY':
      return 4;
    case 'INT64':
    case 'DOUBLE':
      return 8;
    case 'INT96':
      return 12;
    default:
      return Math.max(1, typeLength ?? 1);
  }
}

/**
 * `n` plain values from the page, refused first when the page is too short to hold them, so a
 * damaged count never sizes an allocation.
 */
export function readPlainValues(page: Uint8Array, at: number, type: SchemaElement['type'], n: number, typeLength: number | undefined): DecodedArray {
  if (n * plainWidth(type, typeLength) > page.length - at) throw new PageError(`a page of ${page.length} bytes cannot hold ${n} values`);
  if (type === 'FIXED_LEN_BYTE_ARRAY' && !(typeLength !== undefined && typeLength > 0)) throw new PageError('fixed-length values without a length');
  return plainModule().readPlain({ view: new DataView(page.buffer, page.byteOffset, page.byteLength), offset: at }, type!, n, typeLength);
}

function decodeValues(encoding: string, body: Bytes, n: number, type: SchemaElement['type'], typeLength: number | undefined, levels: Uint8Array | undefined): DecodedPage {
  const end = body.bytes.length;
  switch (encoding) {
    case 'PLAIN_DICTIONARY':
    case 'RLE_DICTIONARY': {
      const indexes = new Uint32Array(n);
      if (n > 0) readHybrid(body, end, body.u8(), indexes);
      return { levels, values: undefined, indexes };
    }
    case 'RLE': {
      if (type !== 'BOOLEAN') throw new PageError(`RLE values of type ${type}`);
      const bits = new Uint8Array(n);
      const length = body.u32();
      readHybrid(body, Math.min(end, body.at + length), 1, bits);
      return { levels, values: Array.from(bits, (b) => b === 1), indexes: undefined };
    }
    case 'PLAIN':
      return { levels, values: readPlainValues(body.bytes, body.at, type, n, typeLength), indexes: undefined };
    case 'DELTA_BINARY_PACKED': {
      const values = type === 'INT32' ? new Int32Array(n) : new BigInt64Array(n);
      if (n > 0) deltaModule().deltaBinaryUnpack({ view: body.view, offset: body.at }, n, values);
      return { levels, values, indexes: undefined };
    }
    case 'DELTA_LENGTH_BYTE_ARRAY': {
      const values = new Array<Uint8Array>(n);
      if (n > 0) deltaModule().deltaLengthByteArray({ view: body.view, offset: body.at }, n, values);
      return { levels, values, indexes: undefined };
    }
    case 'DELTA_BYTE_ARRAY':
      return { levels, values: deltaByteArray(body, n), indexes: undefined };
    case 'BYTE_STREAM_SPLIT':
      if (n * plainWidth(type, typeLength) > end - body.at) throw new PageError(`a page cannot hold ${n} values`);
      return { levels, values: encodingModule().byteStreamSplit({ view: body.view, offset: body.at }, n, type!, typeLength), indexes: undefined };
    default:
      throw new PageError(`values encoded as ${encoding}, which Custos does not read`);
  }
}

/**
 * DELTA_BYTE_ARRAY (incremental encoding): each value is a prefix of the one before and a suffix.
 * Decoded here rather than by hyparquet so a damaged prefix length is refused before it sizes an
 * allocation (a prefix may not be longer than the value before it).
 */
function deltaByteArray(body: Bytes, n: number): Uint8Array[] {
  const values = new Array<Uint8Array>(n);
  if (n === 0) return values;
  const reader = { view: body.view, offset: body.at };
  const prefixes = new Int32Array(n);
  const suffixes = new Int32Array(n);
  deltaModule().deltaBinaryUnpack(reader, n, prefixes);
  deltaModule().deltaBinaryUnpack(reader, n, suffixes);
  let at = reader.offset;
  let previous = new Uint8Array(0);
  for (let i = 0; i < n; i++) {
    const prefix = prefixes[i]!;
    const suffix = suffixes[i]!;
    if (prefix < 0 || prefix > previous.length || suffix < 0 || at + suffix > body.bytes.length) throw new PageError('a delta-encoded value does not fit its page');
    const value = new Uint8Array(prefix + suffix);
    value.set(previous.subarray(0, prefix));
    value.set(body.bytes.subarray(at, at + suffix), prefix);
    at += suffix;
    values[i] = value;
    previous = value;
  }
  return values;
}
