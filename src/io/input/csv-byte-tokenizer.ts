import { MAX_COLUMNS } from './table-limits.js';
import { resized } from '../../common/table/growable.js';

/**
 * The RFC 4180 tokenizer of csv-tokenizer.ts over the file's bytes instead of its decoded text,
 * for files in UTF-8 or a one-byte encoding with a one-byte delimiter: every character that splits
 * a record (quote, delimiter, line break) is then one byte that no other character contains, so the
 * fields are the same byte ranges whatever the text decodes to. A field is handed on as its range
 * and a hash of its bytes, and the reader looks its code up by bytes (ByteValueCodes): the text of a
 * value is made once per distinct value instead of once per cell, which was most of what reading a
 * census file cost.
 *
 * It reads the files people have. Anything else it hands to the text tokenizer, which reads the
 * whole file again and so says exactly what it always said: a quote never closed, text after a
 * closing quote, more than MAX_COLUMNS fields, a record longer than one read. Line numbers are
 * counted as the text tokenizer counts them.
 */

/** Thrown where the text tokenizer must read the file: the byte reader never reports a problem of its own. */
export class TextPathNeeded extends Error {
  constructor(readonly why: string) {
    super(`the byte reader leaves this file to the text reader: ${why}`);
  }
}

/** The fields of one record: byte ranges of the buffer handed with them, and each range's hash (hashBytes). */
export class ByteFields {
  starts = new Int32Array(64);
  ends = new Int32Array(64);
  hashes = new Int32Array(64);
  /** 0: plain; 1: quoted; 2: quoted with doubled quotes (unescaped in place once the record is whole). */
  kinds = new Uint8Array(64);

  grow(): void {
    const n = this.starts.length * 2;
    this.starts = resized(this.starts, n);
    this.ends = resized(this.ends, n);
    this.hashes = resized(this.hashes, n);
    this.kinds = resized(this.kinds, n);
  }
}

export interface ByteRecordSink {
  /** A whole record: fields [0, count) of `bytes`; `line` is where it starts, as the text tokenizer counts. */
  record(bytes: Uint8Array, fields: ByteFields, count: number, line: number): void;
}

/*
 * Bytes, kinds of field and FNV's prime as const enums, which esbuild writes as the numbers where
 * they are used: a module-level `const` read inside a function is checked for being initialized
 * at every read, and in the scan of every byte that cost a sixth of tokenizing the census file
 * (363 -> 297 ms over its 87 MB in a micro-benchmark, with the hash's seed in a local too).
 */
const enum Byte {
  Quote = 34,
  Lf = 10,
  Cr = 13,
}
const enum Kind {
  Plain = 0,
  Quoted = 1,
  Escaped = 2,
}

/**
 * FNV-1a over bytes, from a basis drawn once per thread; the scan computes the same thing inline for
 * unquoted fields. The hash only picks where ByteValueCodes looks (the bytes decide), but a file
 * made of many values that share one hash would make every look-up walk them all: with a basis
 * nobody knows in advance such a file cannot be made.
 */
export const HASH_SEED = globalThis.crypto.getRandomValues(new Uint32Array(1))[0]! | 0;
const enum Fnv {
  Prime = 0x01000193,
}

export function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let h = HASH_SEED;
  for (let k = start; k < end; k++) h = Math.imul(h ^ bytes[k]!, Fnv.Prime);
  return h;
}

export class ByteCsvTokenizer {
  private line = 1;
  private readonly fields = new ByteFields();
  private readonly delimiter: number;

  constructor(
    delimiter: string,
    private readonly sink: ByteRecordSink,
  ) {
    const code = delimiter.charCodeAt(0);
    if (delimiter.length !== 1 || code >= 0x80 || code === Byte.Quote || code === Byte.Lf || code === Byte.Cr) throw new TextPathNeeded(`the delimiter ${JSON.stringify(delimiter)} is not one ASCII byte`);
    this.delimiter = code;
  }

  /** The physical line the next record starts on. */
  get nextLine(): number {
    return this.line;
  }

  /**
   * Tokenizes `bytes`; final = nothing follows them. Returns where the unfinished record at the end
   * starts (bytes.length when none is): the caller hands those bytes again, with what follows.
   * Doubled quotes of a whole record's fields are undone in place, so `bytes` is changed.
   */
  feed(bytes: Uint8Array, final: boolean): number {
    const n = bytes.length;
    const D = this.delimiter;
    // The seed drawn at load, read once here rather than at every field.
    const seed = HASH_SEED;
    const f = this.fields;
    let i = 0;
    while (i < n) {
      const recordStart = i;
      let count = 0;
      let newlinesInside = 0;
      let quoted = false;
      for (;;) {
        if (count === f.starts.length) f.grow();
        let c = bytes[i]!;
        if (c === Byte.Quote) {
          const open = i + 1;
          let j = open;
          let kind = Kind.Quoted;
          let q: number;
          for (;;) {
            q = bytes.indexOf(Byte.Quote, j);
            if (q === -1 || (q === n - 1 && !final)) {
              if (!final) return recordStart;
              throw new TextPathNeeded('a quoted field is never closed');
            }
            if (q + 1 < n && bytes[q + 1] === Byte.Quote) {
              kind = Kind.Escaped;
              j = q + 2;
              continue;
            }
            break;
          }
          newlinesInside += lineBreaks(bytes, open, q);
          i = q + 1;
          c = i < n ? bytes[i]! : -1;
          if (c !== D && c !== Byte.Lf && c !== Byte.Cr && c !== -1) throw new TextPathNeeded('text after a closing quote');
          if (count === MAX_COLUMNS) throw new TextPathNeeded('too many fields');
          f.starts[count] = open;
          f.ends[count] = q;
          f.kinds[count] = kind;
          quoted = true;
        } else {
          let h = seed;
          let j = i;
          while (j < n) {
            c = bytes[j]!;
            if (c === D || c === Byte.Lf || c === Byte.Cr) break;
            h = Math.imul(h ^ c, Fnv.Prime);
            j++;
          }
          if (j === n) {
            if (!final) return recordStart;
            c = -1;
          }
          if (count === MAX_COLUMNS) throw new TextPathNeeded('too many fields');
          f.starts[count] = i;
          f.ends[count] = j;
          f.hashes[count] = h;
          f.kinds[count] = Kind.Plain;
          i = j;
        }
        count++;
        if (c === D) {
          i++;
          if (i === n && !final) return recordStart;
          if (i === n) {
            if (count === MAX_COLUMNS) throw new TextPathNeeded('too many fields');
            if (count === f.starts.length) f.grow();
            f.starts[count] = i;
            f.ends[count] = i;
            f.hashes[count] = seed;
            f.kinds[count] = Kind.Plain;
            count++;
            break;
          }
          continue;
        }
        if (c === Byte.Cr) {
          if (i + 1 === n && !final) return recordStart;
          i += i + 1 < n && bytes[i + 1] === Byte.Lf ? 2 : 1;
        } else if (c === Byte.Lf) i++;
        break;
      }
      if (quoted) finishQuoted(bytes, f, count);
      const line = this.line;
      this.line += newlinesInside + 1;
      this.sink.record(bytes, f, count, line);
    }
    return n;
  }
}

/** Hashes the record's quoted fields, undoing doubled quotes in place first (the record is whole: its bytes are not read again). */
function finishQuoted(bytes: Uint8Array, f: ByteFields, count: number): void {
  for (let k = 0; k < count; k++) {
    const kind = f.kinds[k]!;
    if (kind === Kind.Plain) continue;
    const start = f.starts[k]!;
    let end = f.ends[k]!;
    if (kind === Kind.Escaped) {
      // Inside a closed quoted field every quote is one of a pair.
      let w = start;
      for (let r = start; r < end; r++) {
        const b = bytes[r]!;
        bytes[w++] = b;
        if (b === Byte.Quote) r++;
      }
      end = w;
      f.ends[k] = end;
    }
    f.hashes[k] = hashBytes(bytes, start, end);
  }
}

/** Line breaks inside a quoted value, as the text tokenizer counts them: line feeds, or carriage returns where there is none. */
function lineBreaks(bytes: Uint8Array, start: number, end: number): number {
  let lf = 0;
  let cr = 0;
  for (let k = start; k < end; k++) {
    const b = bytes[k];
    if (b === Byte.Lf) lf++;
    else if (b === Byte.Cr) cr++;
  }
  return lf > 0 ? lf : cr;
}
