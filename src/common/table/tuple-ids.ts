/**
 * Dense ids for the distinct tuples of several dictionary-encoded columns over
 * a list of rows: mixed-radix keys, in 4 bytes when every combination fits them, else
 * while they stay exact in a double, re-numbered (`renumberKeys`) whenever the next
 * column would overflow, so any width works.
 * The one mechanism behind micro groups, equivalence classes, bucket checks and
 * the query pool's lattice (`denseIds`).
 */
/** Keys stay exact in a double below this. */
export const SAFE_KEY_LIMIT = 2 ** 52;

export interface KeyColumn {
  readonly codes: Uint32Array;
  /** Codes lie in [0, cardinality). */
  readonly cardinality: number;
}

/** A dictionary-encoded column as a key column. */
export const keyColumn = (c: { readonly codes: Uint32Array; readonly dictionary: readonly string[] }): KeyColumn => ({ codes: c.codes, cardinality: c.dictionary.length });

export function tupleIds(columns: readonly KeyColumn[], rows: Uint32Array | null, rowCount: number): { ids: Uint32Array; count: number } {
  const n = rows ? rows.length : rowCount;
  if (columns.reduce((product, c) => product * c.cardinality, 1) <= NARROW_KEY_LIMIT) return narrowTupleIds(columns, rows, n);
  const keys = new Float64Array(n);
  let radix = 1;
  for (const column of columns) {
    const base = column.cardinality;
    if (radix * base >= SAFE_KEY_LIMIT) radix = Math.max(1, renumberKeys(keys, n, keys));
    const codes = column.codes;
    if (rows) for (let i = 0; i < n; i++) keys[i] = keys[i]! * base + codes[rows[i]!]!;
    else for (let i = 0; i < n; i++) keys[i] = keys[i]! * base + codes[i]!;
    radix *= base;
  }
  const ids = new Uint32Array(n);
  const count = n === 0 ? 0 : renumberKeys(keys, n, ids);
  return { ids, count };
}

/** Keys of every column together below this fit 4 bytes: a census's quasi-identifiers (2.4·10^9 combinations for nine of them) do. */
const NARROW_KEY_LIMIT = 2 ** 32;

/**
 * tupleIds when the keys stay below 2^32: 4-byte keys and a table of 4-byte keys, half the memory
 * read and written of 8-byte ones (a quarter less time on a million rows). The ids are the same:
 * they depend only on the order of first occurrences.
 */
function narrowTupleIds(columns: readonly KeyColumn[], rows: Uint32Array | null, n: number): { ids: Uint32Array; count: number } {
  const keys = new Uint32Array(n);
  for (const column of columns) {
    const base = column.cardinality;
    const codes = column.codes;
    // Below the product of the cardinalities, so below 2^32: exact in a double, then stored whole.
    if (rows) for (let i = 0; i < n; i++) keys[i] = keys[i]! * base + codes[rows[i]!]!;
    else for (let i = 0; i < n; i++) keys[i] = keys[i]! * base + codes[i]!;
  }
  const ids = new Uint32Array(n);
  return { ids, count: n === 0 ? 0 : renumberNarrowKeys(keys, n, ids) };
}

/**
 * renumberKeys for keys below 2^32, in a table of 4-byte keys (kept apart from renumberKeys, not
 * made generic over the key arrays: each loop then sees one kind of array, which V8 compiles tightly).
 */
function renumberNarrowKeys(keys: Uint32Array, n: number, out: Uint32Array): number {
  let capacity = 16;
  while (capacity < n * 2 && capacity < FIRST_CAPACITY) capacity *= 2;
  let mask = capacity - 1;
  let slotKey = new Uint32Array(capacity);
  let slotId = new Int32Array(capacity).fill(-1);
  let next = 0;
  for (let i = 0; i < n; i++) {
    const k = keys[i]!;
    let slot = narrowSlotOf(k, mask);
    for (;;) {
      const id = slotId[slot]!;
      if (id === -1) {
        slotId[slot] = next;
        slotKey[slot] = k;
        out[i] = next++;
        break;
      }
      if (slotKey[slot] === k) {
        out[i] = id;
        break;
      }
      slot = (slot + 1) & mask;
    }
    if (next * 2 > capacity) {
      const oldKey = slotKey;
      const oldId = slotId;
      capacity *= 2;
      mask = capacity - 1;
      slotKey = new Uint32Array(capacity);
      slotId = new Int32Array(capacity).fill(-1);
      for (let s = 0; s < oldId.length; s++) {
        const id = oldId[s]!;
        if (id === -1) continue;
        let to = narrowSlotOf(oldKey[s]!, mask);
        while (slotId[to] !== -1) to = (to + 1) & mask;
        slotId[to] = id;
        slotKey[to] = oldKey[s]!;
      }
    }
  }
  return next;
}

/** A 32-bit key's slot: multiplied by the golden ratio, its high bits folded down. */
function narrowSlotOf(k: number, mask: number): number {
  const h = Math.imul(k, 0x9e3779b1);
  return (h ^ (h >>> 15)) & mask;
}

/** The largest first size of the table of distinct keys (2n slots for fewer keys); it doubles as they come. */
const FIRST_CAPACITY = 1 << 10;

/**
 * Dense ids (first occurrence first) for keys[0 … n), which are non-negative integers below 2^52.
 * `expected`, a guess of how many keys are distinct, sizes the table at the start.
 */
export function denseIds(keys: Float64Array, n: number, expected = 0): { ids: Uint32Array; count: number } {
  const ids = new Uint32Array(n);
  return { ids, count: renumberKeys(keys, n, ids, expected) };
}

/**
 * Writes to out[i] the dense id of key i's first occurrence (keys are non-negative integers below
 * 2^52; out may be keys itself), with an open-addressing table: several times faster than a Map on
 * the millions of keys grouping and lattice scoring produce. The table grows with the distinct
 * keys, kept at most half full, rather than being sized for every key being distinct: a million
 * rows of a few thousand tuples then probe a table that stays in cache, not 24 MB of fresh pages.
 * The ids depend only on the order of first occurrences, not on the table's size or its hash.
 */
function renumberKeys(keys: Float64Array, n: number, out: Float64Array | Uint32Array, expected = 0): number {
  let capacity = 16;
  while ((capacity < n * 2 && capacity < FIRST_CAPACITY) || capacity < expected * 2) capacity *= 2;
  let mask = capacity - 1;
  let slotKey = new Float64Array(capacity);
  let slotId = new Int32Array(capacity).fill(-1);
  let next = 0;
  for (let i = 0; i < n; i++) {
    const k = keys[i]!;
    let slot = slotOf(k, mask);
    for (;;) {
      const id = slotId[slot]!;
      if (id === -1) {
        slotId[slot] = next;
        slotKey[slot] = k;
        out[i] = next++;
        break;
      }
      if (slotKey[slot] === k) {
        out[i] = id;
        break;
      }
      slot = (slot + 1) & mask;
    }
    if (next * 2 > capacity) {
      const oldKey = slotKey;
      const oldId = slotId;
      capacity *= 2;
      mask = capacity - 1;
      slotKey = new Float64Array(capacity);
      slotId = new Int32Array(capacity).fill(-1);
      for (let s = 0; s < oldId.length; s++) {
        const id = oldId[s]!;
        if (id === -1) continue;
        let to = slotOf(oldKey[s]!, mask);
        while (slotId[to] !== -1) to = (to + 1) & mask;
        slotId[to] = id;
        slotKey[to] = oldKey[s]!;
      }
    }
  }
  return next;
}

/** A key's slot: its exact 32-bit halves mixed, then the high bits folded down (keys that differ only high up still spread). */
function slotOf(k: number, mask: number): number {
  const hi = Math.floor(k / 4294967296);
  const h = Math.imul((k - hi * 4294967296) ^ Math.imul(hi, 0x85ebca6b), 0x9e3779b1);
  return (h ^ (h >>> 15)) & mask;
}
