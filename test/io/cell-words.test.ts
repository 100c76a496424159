import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CHUNK_BYTES } from '../../src/io/output/byte-chunks.js';
import { ByteChunks } from '../../src/io/output/byte-chunks.js';
import { cellWords } from '../../src/io/output/cell-words.js';

/** Rows through ByteChunks as writeRowCells writes them, and the bytes handed on, joined. */
function written(cells: readonly (readonly Uint8Array[])[], rows: readonly (readonly number[])[]): { bytes: Buffer; pieces: number } {
  const out: Buffer[] = [];
  const columns = cells.map(cellWords);
  const chunk = new ByteChunks();
  for (const row of rows) {
    row.forEach((code, j) => chunk.putCell(columns[j]!, code));
    // A copy, as a stream would keep it: the writer must not write into a buffer it handed on.
    if (chunk.full) out.push(Buffer.from(chunk.take()));
  }
  out.push(Buffer.from(chunk.take()));
  return { bytes: Buffer.concat(out), pieces: out.length };
}

const expected = (cells: readonly (readonly Uint8Array[])[], rows: readonly (readonly number[])[]): Buffer => Buffer.concat(rows.flatMap((r) => r.map((code, j) => cells[j]![code]!)));

describe('rows written a word at a time', () => {
  it('are the cells\u2019 bytes in order, whatever their lengths (padding never shows)', () => {
    const column = fc.array(fc.uint8Array({ minLength: 0, maxLength: 13 }), { minLength: 1, maxLength: 6 });
    fc.assert(
      fc.property(
        fc.array(column, { minLength: 1, maxLength: 5 }).chain((cells) =>
          fc.tuple(fc.constant(cells), fc.array(fc.tuple(...cells.map((c) => fc.integer({ min: 0, max: c.length - 1 }))), { maxLength: 40 })),
        ),
        ([cells, rows]) => {
          expect(written(cells, rows).bytes.equals(expected(cells, rows))).toBe(true);
        },
      ),
      { seed: 29, numRuns: 400 },
    );
  });

  it('between pieces copied a byte at a time, of any length', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.uint8Array({ maxLength: 40 }), fc.uint8Array({ minLength: 1, maxLength: 9 }).map((b) => ({ cell: b }))), { maxLength: 60 }), (pieces) => {
        const chunk = new ByteChunks();
        for (const p of pieces) {
          if (p instanceof Uint8Array) chunk.put(p);
          else chunk.putCell(cellWords([p.cell]), 0);
        }
        const expectedBytes = Buffer.concat(pieces.map((p) => (p instanceof Uint8Array ? p : p.cell)));
        expect(Buffer.from(chunk.take()).equals(expectedBytes)).toBe(true);
      }),
      { seed: 31, numRuns: 300 },
    );
  });

  it('across many buffers, and a row wider than a buffer', () => {
    const cells = [[Uint8Array.from([1, 2, 3]), Uint8Array.from([4, 5, 6, 7, 8])], [new Uint8Array(CHUNK_BYTES + 5).fill(9), Uint8Array.from([10])]];
    const rows = Array.from({ length: 500_000 }, (_, i) => [i % 2, i === 250_000 ? 0 : 1]);
    const { bytes, pieces } = written(cells, rows);
    expect(pieces).toBeGreaterThan(3);
    expect(bytes.equals(expected(cells, rows))).toBe(true);
  });

  it('whole blocks of rows (putRows) are the same bytes, handed on as chunks fill, whatever the blocks', () => {
    /** Rows written as blocks of the given sizes; each chunk handed on copied, as a file writer takes it. */
    const inBlocks = (cells: readonly (readonly Uint8Array[])[], rows: readonly (readonly number[])[], sizes: readonly number[]): { bytes: Buffer; pieces: number } => {
      const out: Buffer[] = [];
      const sink = { write: (data: Uint8Array) => void out.push(Buffer.from(data)) };
      const columns = cells.map(cellWords);
      const chunk = new ByteChunks();
      for (let start = 0, b = 0; start < rows.length; b++) {
        const count = Math.min(Math.max(1, sizes[b % sizes.length]!), rows.length - start);
        const codes = cells.map((_, j) => Uint32Array.from(rows.slice(start, start + count), (r) => r[j]!));
        chunk.putRows(columns, codes, count, sink);
        start += count;
      }
      chunk.flushTo(sink);
      return { bytes: Buffer.concat(out), pieces: out.length };
    };
    const column = fc.array(fc.uint8Array({ minLength: 0, maxLength: 13 }), { minLength: 1, maxLength: 6 });
    fc.assert(
      fc.property(
        fc.array(column, { minLength: 1, maxLength: 5 }).chain((cells) =>
          fc.tuple(fc.constant(cells), fc.array(fc.tuple(...cells.map((c) => fc.integer({ min: 0, max: c.length - 1 }))), { maxLength: 40 }), fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 4 })),
        ),
        ([cells, rows, sizes]) => {
          expect(inBlocks(cells, rows, sizes).bytes.equals(expected(cells, rows))).toBe(true);
        },
      ),
      { seed: 37, numRuns: 400 },
    );
    // Many chunks, and a row wider than a chunk: the buffer is made room for it.
    const wide = [[Uint8Array.from([1, 2, 3]), Uint8Array.from([4, 5, 6, 7, 8])], [new Uint8Array(CHUNK_BYTES + 5).fill(9), Uint8Array.from([10])]];
    const rows = Array.from({ length: 500_000 }, (_, i) => [i % 2, i === 250_000 ? 0 : 1]);
    const { bytes, pieces } = inBlocks(wide, rows, [65_536]);
    expect(pieces).toBeGreaterThan(3);
    expect(bytes.equals(expected(wide, rows))).toBe(true);
  });
});
