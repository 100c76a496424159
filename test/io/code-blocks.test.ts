import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeBlocks, type ReleaseColumn, type ReleaseTable } from '../../src/io/output/release-table.js';

/** A column over `inputRows` input rows with a dictionary of `size` entries, read through `via` (or directly). */
function column(name: string, size: number, codes: number[], via: Uint32Array | null): ReleaseColumn {
  // Only the dictionary's length matters to the blocks.
  return { name, dictionary: new Array<string>(size).fill(name), codes: Uint32Array.from(codes, (c) => c % size), via, numeric: false };
}

describe('released codes a block at a time', () => {
  it('equal reading every cell through its column’s via, whatever columns share a pack (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.array(fc.constantFrom(1, 2, 3, 7, 300, 65536, 65537, 70000), { minLength: 1, maxLength: 8 }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 400 }),
        fc.integer({ min: 0, max: 50 }),
        fc.nat(),
        (inputRows, sizes, raw, released, split) => {
          const at = (i: number) => raw[i % raw.length]!;
          const viaA = Uint32Array.from({ length: released }, (_, r) => at(r * 3 + 1) % inputRows);
          const viaB = Uint32Array.from({ length: released }, (_, r) => at(r * 5 + 2) % inputRows);
          const columns = sizes.map((size, j) => {
            const kind = at(j * 7) % 3;
            if (kind === 2) return column(`d${j}`, size, Array.from({ length: released }, (_, r) => at(r + j)), null);
            return column(`c${j}`, size, Array.from({ length: inputRows }, (_, r) => at(r * (j + 2))), kind === 0 ? viaA : viaB);
          });
          const table: ReleaseTable = { rowCount: released, columns };
          const first = released === 0 ? 0 : split % released;
          const seen: number[][] = [];
          for (const block of codeBlocks(table, first)) {
            for (let i = 0; i < block.count; i++) seen.push(block.codes.map((c) => c[i]!));
          }
          const expected = Array.from({ length: released - first }, (_, k) => columns.map((c) => c.codes[c.via ? c.via[first + k]! : first + k]!));
          expect(seen).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('refuses a code past its dictionary instead of spilling it into a packed neighbour', () => {
    const via = Uint32Array.from([0, 1]);
    const bad = { ...column('a', 2, [0, 1], via), codes: Uint32Array.from([0, 5]) };
    const table: ReleaseTable = { rowCount: 2, columns: [bad, column('b', 2, [1, 0], via)] };
    expect(() => [...codeBlocks(table)]).toThrow(/"a" has a code past its dictionary/);
  });
});
