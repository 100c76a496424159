import { describe, expect, it } from 'vitest';
import { tupleIds, type KeyColumn } from '../../src/common/table/tuple-ids.js';

/** The reference: the id of each row's tuple in order of first occurrence, through a Map of joined codes. */
function reference(columns: readonly KeyColumn[], rows: Uint32Array | null, n: number): { ids: number[]; count: number } {
  const seen = new Map<string, number>();
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const r = rows ? rows[i]! : i;
    const key = columns.map((c) => c.codes[r]).join(',');
    let id = seen.get(key);
    if (id === undefined) seen.set(key, (id = seen.size));
    ids.push(id);
  }
  return { ids, count: seen.size };
}

function column(n: number, cardinality: number, seed: number): KeyColumn {
  // xorshift32: deterministic, and its low bits are not periodic as a small LCG's are.
  let state = seed;
  const codes = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    codes[i] = (state >>> 0) % cardinality;
  }
  return { codes, cardinality };
}

describe('tupleIds', () => {
  it('numbers tuples by first occurrence while its table grows from a few slots to many thousands', () => {
    // 60,000 rows of up to 50,000 distinct tuples: the table of keys doubles many times.
    const n = 60_000;
    const columns = [column(n, 250, 1), column(n, 200, 2)];
    const got = tupleIds(columns, null, n);
    const want = reference(columns, null, n);
    expect(got.count).toBe(want.count);
    expect(got.count).toBeGreaterThan(20_000);
    expect(Array.from(got.ids)).toEqual(want.ids);
  });

  it('is the same over a list of rows and over keys too wide for one double (renumbered on the way)', () => {
    const n = 20_000;
    // Six columns of 2^10 values: 2^60 combinations, past 2^52, so keys are renumbered between columns.
    const columns = [1, 2, 3, 4, 5, 6].map((s) => column(n, 1024, s * 17));
    const rows = Uint32Array.from({ length: 5000 }, (_, i) => (i * 7) % n);
    const got = tupleIds(columns, rows, rows.length);
    const want = reference(columns, rows, rows.length);
    expect(got.count).toBe(want.count);
    expect(Array.from(got.ids)).toEqual(want.ids);
    expect(tupleIds(columns, null, 0)).toEqual({ ids: new Uint32Array(0), count: 0 });
  });

  it('is the same on either side of 2^32 combinations (4-byte keys below, 8-byte keys from there), over rows and over a list of rows', () => {
    const n = 6000;
    // Codes drawn from the top of each range as well: the largest keys of each side are met.
    const wide = (cardinality: number, seed: number): KeyColumn => {
      const c = column(n, cardinality, seed);
      for (let i = 0; i < n; i += 7) c.codes[i] = cardinality - 1 - (i % 3);
      return c;
    };
    const rows = Uint32Array.from({ length: 2500 }, (_, i) => (i * 13) % n);
    for (const cardinalities of [[65536, 65536], [65536, 65537], [3, 1 << 30, 2], [1 << 16, 1 << 15, 3]]) {
      const columns = cardinalities.map((c, j) => wide(c, 31 + j));
      const all = tupleIds(columns, null, n);
      const want = reference(columns, null, n);
      expect(all.count).toBe(want.count);
      expect(Array.from(all.ids)).toEqual(want.ids);
      const some = tupleIds(columns, rows, rows.length);
      expect(Array.from(some.ids)).toEqual(reference(columns, rows, rows.length).ids);
    }
    // Tuples whose mixed-radix keys differ by exactly 2^32 ((0, b, c) and (2, b, c) over 3 × 2^30 × 2):
    // 4-byte keys would make them one.
    const apart = [Uint32Array.from([0, 2, 0, 2]), Uint32Array.from([5, 5, 7, 7]), Uint32Array.from([1, 1, 0, 0])].map((codes, j) => ({ codes, cardinality: [3, 1 << 30, 2][j]! }));
    expect(tupleIds(apart, null, 4)).toEqual({ ids: Uint32Array.from([0, 1, 2, 3]), count: 4 });
  });
});
