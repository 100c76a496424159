import { isUtf8 } from 'node:buffer';
import type { TextEncoding } from '../../common/job/encoding.js';
import { ByteCsvTokenizer, TextPathNeeded, type ByteFields, type ByteRecordSink } from './csv-byte-tokenizer.js';
import type { RecordRules } from './csv-records.js';
import { CsvTokenizer, type CsvRecordSink } from './csv-tokenizer.js';
import { ByteValueCodes } from './byte-value-codes.js';
import type { TableBuilder } from './table-builder.js';
import { resized } from '../../common/table/growable.js';
import { chunkDecoder, decodePieces, type ChunkDecoder } from './text-decoder.js';

/**
 * Reads a part of a delimited file, handed its bytes read after read, into records. Two readers do
 * it: over decoded text (every file the tokenizer reads), and over bytes (the files people have,
 * several times faster). Both end in the same table: the byte reader leaves anything it does not
 * read exactly as the text reader does to that reader (TextPathNeeded), which then reads the part
 * again from its start.
 */
export interface RecordReader {
  /** The next bytes of the part; `final`: nothing follows them. The caller may reuse `bytes` after. */
  feed(bytes: Uint8Array, final: boolean): void;
  /** Whether everything fed so far ended at the end of a record. */
  readonly atRecordStart: boolean;
  /** The physical line the next record starts on. */
  readonly nextLine: number;
}

/** Bytes that do not decode in the file's encoding (only the text reader throws it). */
export class NotText extends Error {}

/** Records to a text sink: the header, then RecordRules. */
export class TextRecordReader implements RecordReader {
  private readonly decoder: ChunkDecoder;
  private readonly tokenizer: CsvTokenizer;

  constructor(encoding: TextEncoding, keepBom: boolean, delimiter: string, sink: CsvRecordSink) {
    this.decoder = chunkDecoder(encoding, { keepBom });
    this.tokenizer = new CsvTokenizer(delimiter, sink);
  }

  feed(bytes: Uint8Array, final: boolean): void {
    let pieces: string[];
    try {
      pieces = decodePieces(this.decoder, bytes, !final);
    } catch {
      throw new NotText();
    }
    for (let k = 0; k < pieces.length; k++) this.tokenizer.feed(pieces[k]!, final && k === pieces.length - 1);
  }

  get atRecordStart(): boolean {
    return this.tokenizer.atRecordStart;
  }

  get nextLine(): number {
    return this.tokenizer.nextLine;
  }
}

/**
 * Reads a part by bytes (`read(false)`), and again from its start by text (`read(true)`) where the
 * byte reader leaves it to the text reader: what the text reader reads, or reports, is then exactly
 * what it always did.
 */
export function withTextFallback<T>(read: (textOnly: boolean) => T): T {
  try {
    return read(false);
  } catch (error) {
    if (error instanceof TextPathNeeded) return read(true);
    throw error;
  }
}

/** Whether the byte reader can read a file in this encoding with this delimiter (see csv-byte-tokenizer.ts). */
function bytesReadable(encoding: TextEncoding, delimiter: string): boolean {
  return (encoding === 'utf-8' || encoding === 'windows-1252') && delimiter.length === 1 && delimiter.charCodeAt(0) < 0x80;
}

/**
 * A record longer than this waits for the text reader (its limit and message are the text
 * reader's; the byte reader would scan such a record again at each read).
 */
const MAX_HELD_BYTES = 4 << 20;

export class ByteRecordReader implements RecordReader {
  private readonly tokenizer: ByteCsvTokenizer;
  /** The unfinished record's bytes at [0, held), then the read being tokenized. */
  private work = new Uint8Array(0);
  private held = 0;
  private atStart = true;

  constructor(
    private readonly encoding: 'utf-8' | 'windows-1252',
    private readonly keepBom: boolean,
    delimiter: string,
    sink: ByteRecordSink,
  ) {
    this.tokenizer = new ByteCsvTokenizer(delimiter, sink);
  }

  feed(bytes: Uint8Array, final: boolean): void {
    const total = this.held + bytes.length;
    if (this.work.length < total) this.work = resized(this.work, Math.max(total, this.work.length * 2), this.held);
    this.work.set(bytes, this.held);
    const view = this.work.subarray(0, total);
    let begin = 0;
    if (this.atStart) {
      // The text decoder drops one leading UTF-8 byte order mark at the start of the file.
      if (!this.keepBom && this.encoding === 'utf-8' && total >= 3 && view[0] === 0xef && view[1] === 0xbb && view[2] === 0xbf) begin = 3;
      if (total >= 3 || final) this.atStart = false;
      else {
        this.held = total;
        return;
      }
    }
    // The text reader decodes a whole read before it tokenizes any of it: bytes that are not UTF-8
    // anywhere in this read are its error, before any record of the read (a row of the wrong width)
    // could be.
    if (this.encoding === 'utf-8' && !wholeUtf8(view.subarray(begin), final)) throw new TextPathNeeded('bytes that are not UTF-8');
    const done = begin + this.tokenizer.feed(view.subarray(begin), final);
    const rest = total - done;
    if (rest > MAX_HELD_BYTES) throw new TextPathNeeded('a record longer than one read');
    this.work.copyWithin(0, done, total);
    this.held = rest;
  }

  get atRecordStart(): boolean {
    return this.held === 0;
  }

  get nextLine(): number {
    return this.tokenizer.nextLine;
  }
}

/**
 * Whether bytes are UTF-8 as a streaming strict decoder takes them: all of them, or (unless
 * `final`) all but the start of a character the next read completes.
 */
export function wholeUtf8(bytes: Uint8Array, final: boolean): boolean {
  if (isUtf8(bytes)) return true;
  if (final) return false;
  const n = bytes.length;
  for (let tail = 1; tail <= 3 && tail <= n; tail++) {
    if (!isUtf8(bytes.subarray(0, n - tail))) continue;
    try {
      // A fresh strict decoder in streaming mode holds a character's valid start and throws on anything else.
      return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes.subarray(n - tail), { stream: true }) === '';
    } catch {
      return false;
    }
  }
  return false;
}

/** A value's text from its bytes, in the file's encoding (the bytes are valid: checked before tokenizing). */
function byteText(encoding: 'utf-8' | 'windows-1252'): (bytes: Uint8Array, start: number, end: number) => string {
  if (encoding === 'windows-1252') {
    const decoder = chunkDecoder('windows-1252');
    return (bytes, start, end) => decoder.decode(bytes.subarray(start, end), false);
  }
  let of: Uint8Array | undefined;
  let buffer: Buffer = Buffer.alloc(0);
  return (bytes, start, end) => {
    if (bytes !== of) {
      of = bytes;
      buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    }
    return buffer.toString('utf8', start, end);
  };
}

/** The most columns a byte reader keeps value caches for (ByteValueCodes: a few hundred bytes each to start). */
const MAX_CACHED_COLUMNS = 1024;

/**
 * The byte reader's records into a table: kept or not by RecordRules, each value's code found by its
 * bytes, and asked of the builder (by its text) only the first time those bytes are met.
 */
class ByteRecordTable implements ByteRecordSink {
  /** Per column; undefined once a column is not worth it (mostly distinct values): its values are made into text each time. */
  private readonly known: (ByteValueCodes | undefined)[];
  private readonly codes: Int32Array;

  constructor(
    private readonly builder: TableBuilder,
    private readonly rules: RecordRules,
    private readonly text: (bytes: Uint8Array, start: number, end: number) => string,
  ) {
    // A file of thousands of columns (a few rows of a wide export) keeps no caches: their fixed cost
    // per column would outweigh what they save, and the text budget of such a file is its width.
    this.known = builder.header.map(() => (builder.header.length <= MAX_CACHED_COLUMNS ? new ByteValueCodes() : undefined));
    this.codes = new Int32Array(builder.header.length);
  }

  record(bytes: Uint8Array, fields: ByteFields, count: number, line: number): void {
    if (!this.rules.keeps(count, count === 1 && fields.ends[0] === fields.starts[0], line)) return;
    this.builder.checkRoom();
    const { starts, ends, hashes } = fields;
    for (let j = 0; j < count; j++) {
      const start = starts[j]!;
      const end = ends[j]!;
      const known = this.known[j];
      let code = known ? known.lookup(bytes, start, end, hashes[j]!) : -1;
      if (code < 0) {
        code = this.builder.codeOf(j, this.text(bytes, start, end), line);
        if (known && !known.remember(bytes, start, end, hashes[j]!, code)) this.known[j] = undefined;
      }
      this.codes[j] = code;
    }
    this.builder.addCodes(this.codes);
  }
}

/** The header's fields as text, for a byte reader's first record. */
function fieldTexts(bytes: Uint8Array, fields: ByteFields, count: number, text: (bytes: Uint8Array, start: number, end: number) => string): string[] {
  const out: string[] = [];
  for (let j = 0; j < count; j++) out.push(text(bytes, fields.starts[j]!, fields.ends[j]!));
  return out;
}

/** Where a part's records go: the table's builder and the rules for records of the wrong width. */
export interface RecordTarget {
  readonly builder: TableBuilder;
  readonly rules: RecordRules;
}

/** Makes the target from the first record (the header's fields), for a part that starts with one. */
export type TableStart = (header: string[]) => RecordTarget;

/** The reader of a part: by bytes where it can, else by text (`textOnly` for the second attempt). */
export function recordReader(encoding: TextEncoding, keepBom: boolean, delimiter: string, start: TableStart | RecordTarget, textOnly: boolean): RecordReader {
  let target = typeof start === 'function' ? undefined : start;
  if (!textOnly && bytesReadable(encoding, delimiter)) {
    const byteEncoding = encoding as 'utf-8' | 'windows-1252';
    const text = byteText(byteEncoding);
    let table = target ? new ByteRecordTable(target.builder, target.rules, text) : undefined;
    return new ByteRecordReader(byteEncoding, keepBom, delimiter, {
      record(bytes, fields, count, line) {
        if (table) return table.record(bytes, fields, count, line);
        target = (start as TableStart)(fieldTexts(bytes, fields, count, text));
        table = new ByteRecordTable(target.builder, target.rules, text);
      },
    });
  }
  return new TextRecordReader(encoding, keepBom, delimiter, {
    record(fields, count, line) {
      if (target) return target.rules.record(fields, count, line);
      target = (start as TableStart)(fields.slice(0, count));
    },
  });
}
