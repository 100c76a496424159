/**
 * Dense ids for the distinct tuples of several dictionary-encoded columns over
 * a list of rows: mixed-radix keys while they stay exact in a double, re-numbered
 * through a Map whenever the next column would overflow, so any width works.
 * The one mechanism behind micro groups, equivalence classes and bucket checks.
 */
const SAFE_KEY_LIMIT = 2 ** 52;

export interface KeyColumn {
  readonly codes: Uint32Array;
  /** Codes lie in [0, cardinality). */
  readonly cardinality: number;
}

/** A dictionary-encoded column as a key column. */
export const keyColumn = (c: { readonly codes: Uint32Array; readonly dictionary: readonly string[] }): KeyColumn => ({ codes: c.codes, cardinality: c.dictionary.length });

export function tupleIds(columns: readonly KeyColumn[], rows: Uint32Array | null, rowCount: number): { ids: Uint32Array; count: number } {
  const n = rows ? rows.length : rowCount;
  const keys = new Float64Array(n);
  const renumber = (): number => {
    const ids = new Map<number, number>();
    for (let i = 0; i < n; i++) {
      const k = keys[i]!;
      let id = ids.get(k);
      if (id === undefined) ids.set(k, (id = ids.size));
      keys[i] = id;
    }
    return ids.size;
  };
  let radix = 1;
  for (const column of columns) {
    const base = column.cardinality;
    if (radix * base >= SAFE_KEY_LIMIT) radix = Math.max(1, renumber());
    const codes = column.codes;
    if (rows) for (let i = 0; i < n; i++) keys[i] = keys[i]! * base + codes[rows[i]!]!;
    else for (let i = 0; i < n; i++) keys[i] = keys[i]! * base + codes[i]!;
    radix *= base;
  }
  const count = n === 0 ? 0 : renumber();
  return { ids: Uint32Array.from(keys), count };
}
