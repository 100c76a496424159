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
 * Rows written as their cells' words into buffers of about CHUNK_BYTES, each handed on once full.
 * `row` adds one row given each column's code.
 */
export class RowWords {
  private readonly slack: number;
  private buffer!: ArrayBuffer;
  private view!: DataView;
  private position = 0;

  constructor(
    private readonly columns: readonly CellWords[],
    private readonly out: { write(data: Uint8Array): void },
  ) {
    // Room for the widest row past the point where a buffer counts as full.
    this.slack = columns.reduce((sum, c) => sum + c.widest, 0);
    this.fresh();
  }

  /** Writes the row whose column j holds codes[j][at]. */
  row(codes: readonly Uint32Array[], at: number): void {
    const view = this.view;
    let position = this.position;
    for (let j = 0; j < this.columns.length; j++) {
      const column = this.columns[j]!;
      const code = codes[j]![at]!;
      const words = column.words;
      let w = column.starts[code]!;
      const end = column.starts[code + 1]!;
      let p = position;
      while (w < end) {
        view.setUint32(p, words[w++]!, LITTLE_ENDIAN);
        p += 4;
      }
      position += column.lengths[code]!;
    }
    this.position = position;
    if (position >= CHUNK_BYTES) this.flush();
  }

  /** Hands on what is left. */
  end(): void {
    this.flush();
  }

  private flush(): void {
    // The stream still holds the buffer handed on: the next rows go into a fresh one.
    this.out.write(new Uint8Array(this.buffer, 0, this.position));
    this.fresh();
  }

  private fresh(): void {
    this.buffer = new ArrayBuffer(Math.max(CHUNK_BYTES, this.slack) + this.slack);
    this.view = new DataView(this.buffer);
    this.position = 0;
  }
}
