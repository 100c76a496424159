/**
 * A column's cell bytes (one entry per dictionary code) laid out in 4-byte words (little-endian), each cell starting
 * on a word, so a row is copied a word at a time (ByteChunks.putCell): a million-row CSV is some
 * ten million cells of a few bytes, and copying them a byte at a time was most of what writing it
 * cost (230 vs 370 ms in a micro-benchmark of the census's cells). A cell's last word may carry
 * padding past its end; the next piece is written over it, and only bytes up to the last piece's
 * end are ever handed on.
 */
export interface CellWords {
  readonly words: Uint32Array;
  /** Cell k's words are words[starts[k], starts[k + 1]). */
  readonly starts: Int32Array;
  /** Cell k's length in bytes. */
  readonly lengths: Int32Array;
  /** The most words any cell takes. */
  readonly maxWords: number;
}

export function cellWords(cells: readonly Uint8Array[]): CellWords {
  const starts = new Int32Array(cells.length + 1);
  const lengths = new Int32Array(cells.length);
  let total = 0;
  let maxWords = 0;
  cells.forEach((cell, k) => {
    starts[k] = total;
    lengths[k] = cell.length;
    const words = (cell.length + 3) >> 2;
    total += words;
    if (words > maxWords) maxWords = words;
  });
  starts[cells.length] = total;
  const bytes = new Uint8Array(total * 4);
  cells.forEach((cell, k) => bytes.set(cell, starts[k]! * 4));
  // Each word as its four bytes read little-endian, on any platform: the writers copy it back with a
  // literal `true` (ByteChunks), which V8 compiles to a plain store where a variable flag costs a fifth more.
  const view = new DataView(bytes.buffer);
  const words = new Uint32Array(total);
  for (let w = 0; w < total; w++) words[w] = view.getUint32(w * 4, true);
  return { words, starts, lengths, maxWords };
}
