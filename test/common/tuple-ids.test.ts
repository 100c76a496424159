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
});
