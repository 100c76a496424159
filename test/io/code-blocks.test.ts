import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeBlocks, compactReleaseTable, releasedCodes, type ReleaseColumn, type ReleaseTable } from '../../src/io/output/release-table.js';
import { forgetGatheredCodes, gatheredCodes, KEPT_FOR_ANALYSIS_BYTES } from '../../src/io/output/released-codes.js';
import { recordCodes } from '../../src/jobs/method-kit/compare-kit.js';

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

  it('gathered whole once (releasedCodes) equal every cell through its via, and later blocks and tables sharing the arrays read the same (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.array(fc.constantFrom(1, 2, 3, 7, 300, 65537), { minLength: 1, maxLength: 6 }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 300 }),
        fc.integer({ min: 0, max: 40 }),
        (inputRows, sizes, raw, released) => {
          const at = (i: number) => raw[i % raw.length]!;
          const via = Uint32Array.from({ length: released }, (_, r) => at(r * 3 + 1) % inputRows);
          const columns = sizes.map((size, j) =>
            j % 3 === 2 ? column(`d${j}`, size, Array.from({ length: released }, (_, r) => at(r + j)), null) : column(`c${j}`, size, Array.from({ length: inputRows }, (_, r) => at(r * (j + 2))), via),
          );
          const table: ReleaseTable = { rowCount: released, columns };
          const expected = columns.map((c) => Array.from({ length: released }, (_, r) => c.codes[c.via ? c.via[r]! : r]!));
          const whole = releasedCodes(table);
          expect(whole.map((codes) => [...codes])).toEqual(expected);
          // Another table over the same arrays (a compacted column that kept them) reads the same gathering.
          const twin: ReleaseTable = { rowCount: released, columns: columns.map((c) => ({ ...c, numeric: true })) };
          twin.columns.forEach((c, j) => expect(gatheredCodes(c, released)).toBe(whole[j]));
          const seen: number[][] = columns.map(() => []);
          for (const block of codeBlocks(twin)) block.codes.forEach((codes, j) => seen[j]!.push(...codes.subarray(0, block.count)));
          expect(seen).toEqual(expected);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('keeps no gathering for other rows or other codes: a column whose codes changed is gathered again', () => {
    const via = Uint32Array.from([2, 0, 1]);
    const a = column('a', 4, [3, 1, 2], via);
    const first = releasedCodes({ rowCount: 3, columns: [a] })[0]!;
    expect([...first]).toEqual([2, 3, 1]);
    expect(gatheredCodes(a, 2)).toBeUndefined();
    forgetGatheredCodes([a], 3, 0);
    expect(gatheredCodes(a, 3)).toBeUndefined();
    expect(releasedCodes({ rowCount: 3, columns: [a] })[0]).not.toBe(first);
    const renumbered = { ...a, codes: Uint32Array.from([0, 1, 2]) };
    expect(gatheredCodes(renumbered, 3)).toBeUndefined();
    expect([...releasedCodes({ rowCount: 3, columns: [renumbered] })[0]!]).toEqual([2, 0, 1]);
  });

  it('refuses a code past its dictionary instead of spilling it into a packed neighbour', () => {
    const via = Uint32Array.from([0, 1]);
    const bad = { ...column('a', 2, [0, 1], via), codes: Uint32Array.from([0, 5]) };
    const table: ReleaseTable = { rowCount: 2, columns: [bad, column('b', 2, [1, 0], via)] };
    expect(() => [...codeBlocks(table)]).toThrow(/"a" has a code past its dictionary/);
  });
});

describe('the analysis reads the method’s columns from the compacted gathering', () => {
  it('maps each renumbered column back to the codes the method made (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 30 }),
        fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 4 }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 200 }),
        fc.integer({ min: 1, max: 60 }),
        (inputRows, sizes, raw, released) => {
          const at = (i: number) => raw[i % raw.length]!;
          const via = Uint32Array.from({ length: released }, (_, r) => at(r * 3 + 1) % inputRows);
          const columns = sizes.map((size, j) => ({ ...column(`c${j}`, size, Array.from({ length: inputRows }, (_, r) => at(r * (j + 2))), via), dictionary: Array.from({ length: size }, (_, k) => `v${k}`) }));
          const table: ReleaseTable = { rowCount: released, columns };
          const compacted = compactReleaseTable(table);
          releasedCodes(compacted);
          for (const c of columns) {
            const direct = Array.from({ length: released }, (_, r) => c.codes[via[r]!]!);
            expect([...recordCodes(c, released)]).toEqual(direct);
          }
          // Each reading is the caller's own array: changing it changes no gathering, nor the next reading.
          for (const c of [...columns, ...compacted.columns]) {
            const own = recordCodes(c, released);
            const before = [...own];
            own.fill(0xffff);
            expect([...recordCodes(c, released)]).toEqual(before);
          }
          forgetGatheredCodes(compacted.columns, released, 0);
        },
      ),
      { seed: 5, numRuns: 200 },
    );
  });

  it('keeps the gathering for the analysis up to its budget, and forgets a larger one', () => {
    const via = Uint32Array.from([1, 0, 2]);
    const a = column('a', 4, [3, 1, 2], via);
    releasedCodes({ rowCount: 3, columns: [a] });
    forgetGatheredCodes([a], 3, 12);
    expect(gatheredCodes(a, 3)).toBeDefined();
    forgetGatheredCodes([a], 3, 11);
    expect(gatheredCodes(a, 3)).toBeUndefined();
    expect(KEPT_FOR_ANALYSIS_BYTES).toBe(256 << 20);
  });
});
