import { CHUNK_BYTES } from './byte-chunks.js';

/**
 * A column's cell bytes (one entry per dictionary code) laid out in 4-byte words, each cell starting
 * on a word, so a row is copied a word at a time: a million-row CSV is some ten million cells of a
 * few bytes, and copying them a byte at a time was most of what writing it cost (230 vs 370 ms in a
 * micro-benchmark of the census's cells). A cell's last word may carry padding past its end; the
 * next cell is written over it, and only bytes up to the last cell's end are ever handed on.
 */
export interface CellWords {
  readonly words: Uint32Array;
  /** Cell k's words are words[starts[k], starts[k + 1]). */
  readonly starts: Int32Array;
  /** Cell k's length in bytes. */
  readonly lengths: Int32Array;
  /** The longest cell, in bytes rounded up to whole words. */
  readonly widest: number;
}

/** Words read back as the bytes they were filled from: the platform's byte order. */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

export function cellWords(cells: readonly Uint8Array[]): CellWords {
  const starts = new Int32Array(cells.length + 1);
  const lengths = new Int32Array(cells.length);
  let total = 0;
  let widest = 0;
  cells.forEach((cell, k) => {
    starts[k] = total;
    lengths[k] = cell.length;
    const words = (cell.length + 3) >> 2;
    total += words;
    widest = Math.max(widest, words * 4);
  });
  starts[cells.length] = total;
  const words = new Uint32Array(total);
  const bytes = new Uint8Array(words.buffer);
  cells.forEach((cell, k) => bytes.set(cell, starts[k]! * 4));
  return { words, starts, lengths, widest };
}

/**
 * Bytes appended into buffers handed on once past CHUNK_BYTES, as ByteChunks, with cells copied a
 * word at a time (putCell). A buffer always has room past its end for the copy's last word.
 */
export class WordChunks {
  private buffer!: ArrayBuffer;
  private bytes!: Uint8Array;
  private view!: DataView;
  private position = 0;

  constructor() {
    this.fresh(CHUNK_BYTES + 4096);
  }

  /** Any bytes, copied one at a time (the short pieces between cells) or whole. */
  put(piece: Uint8Array): void {
    const n = piece.length;
    if (this.position + n > this.bytes.length) this.grow(n);
    const bytes = this.bytes;
    let at = this.position;
    if (n < 24) for (let i = 0; i < n; i++) bytes[at++] = piece[i]!;
    else {
      bytes.set(piece, at);
      at += n;
    }
    this.position = at;
  }

  /** Cell `code` of a column's cells. */
  putCell(column: CellWords, code: number): void {
    let w = column.starts[code]!;
    const end = column.starts[code + 1]!;
    if (this.position + (end - w) * 4 > this.bytes.length) this.grow((end - w) * 4);
    const view = this.view;
    const words = column.words;
    let p = this.position;
    while (w < end) {
      view.setUint32(p, words[w++]!, LITTLE_ENDIAN);
      p += 4;
    }
    this.position += column.lengths[code]!;
  }

  get full(): boolean {
    return this.position >= CHUNK_BYTES;
  }

  /** The bytes so far; the next ones go into a fresh buffer, since the stream still holds this one. */
  take(): Buffer {
    const taken = Buffer.from(this.buffer, 0, this.position);
    this.fresh(Math.max(CHUNK_BYTES + 4096, this.bytes.length));
    return taken;
  }

  private fresh(size: number): void {
    this.buffer = new ArrayBuffer(size);
    this.bytes = new Uint8Array(this.buffer);
    this.view = new DataView(this.buffer);
    this.position = 0;
  }

  private grow(needed: number): void {
    const old = this.bytes.subarray(0, this.position);
    const position = this.position;
    this.fresh(Math.max(this.bytes.length * 2, this.position + needed + 4096));
    this.bytes.set(old);
    this.position = position;
  }
}
