import type { CellWords } from './cell-words.js';

/** Bytes handed on at a time: big enough to keep each write or stream step cheap. */
export const CHUNK_BYTES = 1 << 20;
/** A chunk is full, and handed on, once it holds this many bytes. */
const FULL_AT = CHUNK_BYTES - 4096;

/**
 * Bytes appended into a buffer that is handed on when full. A release is a million rows of short
 * pieces (cells formatted once per dictionary entry): copied as bytes, not joined as strings, they
 * leave the garbage collector nothing to do. Cells laid out in words (cell-words.ts) are copied a
 * word at a time (putCell); a buffer always has room past its end for a copy's last word.
 */
export class ByteChunks {
  private buffer!: Buffer;
  private view!: DataView;
  private position = 0;

  constructor() {
    this.fresh(CHUNK_BYTES);
  }

  /** Any bytes, copied one at a time (the short pieces between cells) or whole. */
  put(bytes: Uint8Array): void {
    const n = bytes.length;
    if (this.position + n > this.buffer.length) this.grow(n);
    const buffer = this.buffer;
    let at = this.position;
    if (n < 24) for (let i = 0; i < n; i++) buffer[at++] = bytes[i]!;
    else {
      buffer.set(bytes, at);
      at += n;
    }
    this.position = at;
  }

  /** Cell `code` of a column's cells, a word at a time; the next piece is written over its last word's padding. */
  putCell(column: CellWords, code: number): void {
    let w = column.starts[code]!;
    const end = column.starts[code + 1]!;
    if (this.position + (end - w) * 4 > this.buffer.length) this.grow((end - w) * 4);
    const view = this.view;
    const words = column.words;
    let p = this.position;
    while (w < end) {
      view.setUint32(p, words[w++]!, true);
      p += 4;
    }
    this.position += column.lengths[code]!;
  }

  /**
   * Rows 0 … count − 1 of cells, row i being cell codes[j][i] of each column j in turn, each cell a
   * word at a time (as putCell), handing the bytes to `out` (as flushTo) whenever a chunk is full.
   * The copy's state stays in local variables, not in the object's fields between cells, and the
   * buffer is made large enough for the longest row once, so no cell is checked for room: a fifth
   * less time than a putCell per cell over a million-row CSV (some ten million cells).
   */
  putRows(columns: readonly CellWords[], codes: readonly Uint32Array[], count: number, out: { write(data: Uint8Array): void }): void {
    const k = columns.length;
    const longestRow = columns.reduce((sum, c) => sum + c.maxWords * 4, 0);
    if (this.buffer.length < FULL_AT + longestRow) this.grow(FULL_AT + longestRow - this.position);
    const view = this.view;
    let p = this.position;
    for (let i = 0; i < count; i++) {
      for (let j = 0; j < k; j++) {
        const column = columns[j]!;
        const code = codes[j]![i]!;
        const words = column.words;
        let q = p;
        for (let w = column.starts[code]!, end = column.starts[code + 1]!; w < end; w++) {
          view.setUint32(q, words[w]!, true);
          q += 4;
        }
        p += column.lengths[code]!;
      }
      if (p >= FULL_AT) {
        this.position = p;
        this.flushTo(out);
        p = 0;
      }
    }
    this.position = p;
  }

  get full(): boolean {
    return this.position >= FULL_AT;
  }

  /**
   * Hands the bytes so far to a sink that has taken them when it returns (a file written with
   * writeSync), and writes the next ones into the same buffer: a fresh megabyte per chunk is a
   * megabyte of new pages (some 90 for a million-row CSV) for the system to map and zero.
   */
  flushTo(out: { write(data: Uint8Array): void }): void {
    out.write(this.buffer.subarray(0, this.position));
    this.position = 0;
  }

  /** The bytes so far; the next ones go into a fresh buffer, since the stream still holds this one. */
  take(): Buffer {
    const taken = this.buffer.subarray(0, this.position);
    this.fresh(CHUNK_BYTES);
    return taken;
  }

  private fresh(size: number): void {
    this.buffer = Buffer.allocUnsafe(size);
    this.view = new DataView(this.buffer.buffer, this.buffer.byteOffset, this.buffer.length);
    this.position = 0;
  }

  private grow(needed: number): void {
    const old = this.buffer;
    const position = this.position;
    this.fresh(Math.max(old.length * 2, position + needed));
    old.copy(this.buffer, 0, 0, position);
    this.position = position;
  }
}
