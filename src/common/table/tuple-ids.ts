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
  const renumber = (): number => renumberKeys(keys, n);
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

/**
 * Replaces each key (a non-negative integer below 2^52) by the dense id of its
 * first occurrence, with an open-addressing table: several times faster than a
 * Map on the millions of keys grouping and lattice scoring produce.
 */
function renumberKeys(keys: Float64Array, n: number): number {
  let capacity = 16;
  while (capacity < n * 2) capacity *= 2;
  const mask = capacity - 1;
  const slotKey = new Float64Array(capacity);
  const slotId = new Int32Array(capacity).fill(-1);
  let next = 0;
  for (let i = 0; i < n; i++) {
    const k = keys[i]!;
    const lo = k % 4294967296;
    const hi = (k - lo) / 4294967296;
    let slot = (Math.imul(lo | 0, 0x9e3779b1) ^ Math.imul(hi | 0, 0x85ebca6b)) & mask;
    for (;;) {
      const id = slotId[slot]!;
      if (id === -1) {
        slotId[slot] = next;
        slotKey[slot] = k;
        keys[i] = next++;
        break;
      }
      if (slotKey[slot] === k) {
        keys[i] = id;
        break;
      }
      slot = (slot + 1) & mask;
    }
  }
  return next;
}
