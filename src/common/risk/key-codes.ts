/**
 * Key variables as small integer codes, shared by the individual risk and SUDA2: each column's
 * distinct values numbered 0, 1, … in order of first appearance, a missing value (null) as -1.
 * Values are compared with `===`, so 1 and '1' are different values: the caller decides what is
 * equal (Custos's tables hand over strings).
 */
export type KeyValue = string | number | null;

export interface KeyCodes {
  readonly records: number;
  readonly attributes: number;
  /** codes[a][r]: attribute a of record r; -1 = missing. */
  readonly codes: readonly Int32Array[];
  /** Distinct non-missing values per attribute. */
  readonly cardinality: readonly number[];
  /** True when whoever made the codes checked that none is missing (so no reader scans them again for -1). */
  readonly noneMissing?: boolean;
}

export const MISSING_CODE = -1;

export function encodeKeys(rows: readonly (readonly KeyValue[])[]): KeyCodes {
  const records = rows.length;
  const attributes = records === 0 ? 0 : rows[0]!.length;
  const codes: Int32Array[] = [];
  const cardinality: number[] = [];
  for (let a = 0; a < attributes; a++) {
    const column = new Int32Array(records);
    const numbering = new Map<string | number, number>();
    for (let r = 0; r < records; r++) {
      const row = rows[r]!;
      if (row.length !== attributes) throw new RangeError(`record ${r + 1} has ${row.length} key values, the first has ${attributes}`);
      const value = row[a]!;
      if (value === null) {
        column[r] = MISSING_CODE;
        continue;
      }
      let code = numbering.get(value);
      if (code === undefined) {
        code = numbering.size;
        numbering.set(value, code);
      }
      column[r] = code;
    }
    codes.push(column);
    cardinality.push(numbering.size);
  }
  return { records, attributes, codes, cardinality };
}

/**
 * Class ids of the records on the attributes in `attributes` (missing as its own value): equal ids =
 * equal values on every listed attribute. Ids are dense, 0 … classes − 1, numbered in order of each
 * class's first record, as tupleIds numbers tuples: the disclosure review's classes of a released
 * table are then these very ids, and the risk profile can start from them (adoptClassIdsOnAll).
 */
export function classIds(keys: KeyCodes, attributes: readonly number[], out: Int32Array = new Int32Array(keys.records)): { ids: Int32Array; classes: number } {
  out.fill(0);
  let classes = keys.records === 0 ? 0 : 1;
  const scratch = new RefineScratch(keys.records);
  for (const a of attributes) classes = refineClasses(keys, a, out, classes, out, scratch);
  // A refinement that went through its counting sort numbers classes in class order, not record order.
  const rank = scratch.table.subarray(0, classes).fill(-1);
  let next = 0;
  for (let r = 0; r < keys.records; r++) {
    const c = out[r]!;
    let k = rank[c]!;
    if (k === -1) rank[c] = k = next++;
    out[r] = k;
  }
  return { ids: out, classes };
}

const classesOnAll = new WeakMap<KeyCodes, { readonly ids: Int32Array; readonly classes: number }>();

/**
 * The classes on every attribute (classIds of all of them), computed once per `keys`: the risk
 * profile, the individual risk and SUDA2 each start from them, on the same keys (at 1M records each
 * computation is a pass per attribute and 20 MB of scratch). The ids are shared: callers only read them.
 */
export function classIdsOnAll(keys: KeyCodes): { readonly ids: Int32Array; readonly classes: number } {
  let found = classesOnAll.get(keys);
  if (!found) classesOnAll.set(keys, (found = classIds(keys, keys.codes.map((_, a) => a))));
  return found;
}

/**
 * Takes `found` as the classes on every attribute of `keys` (what classIdsOnAll would compute): the
 * caller computed the same partition of the same codes, numbered the same way (by first record), as
 * the run's disclosure review does for the released table the risk profile reads.
 */
export function adoptClassIdsOnAll(keys: KeyCodes, found: { readonly ids: Int32Array; readonly classes: number }): void {
  if (found.ids.length !== keys.records) throw new RangeError(`${found.ids.length} class ids for ${keys.records} records`);
  classesOnAll.set(keys, found);
}

/** Buffers reused by successive `refineClasses` calls on one table (the search calls it per subset). */
export class RefineScratch {
  readonly table: Int32Array;
  readonly order: Int32Array;
  constructor(records: number) {
    this.table = new Int32Array(4 * records + 1024);
    this.order = new Int32Array(records);
  }
}

/**
 * Splits the classes `ids` (dense, `classes` of them) by attribute `a`, writing the new dense ids to
 * `out` (may be `ids` itself) and returning their number.
 */
export function refineClasses(keys: KeyCodes, a: number, ids: Int32Array, classes: number, out: Int32Array, scratch: RefineScratch = new RefineScratch(keys.records)): number {
  const n = keys.records;
  const column = keys.codes[a]!;
  const radix = keys.cardinality[a]! + 1;
  const space = classes * radix;
  let next = 0;
  if (space <= scratch.table.length) {
    // Few enough (class, code) pairs to number them directly in an array.
    const table = scratch.table;
    table.fill(-1, 0, space);
    for (let r = 0; r < n; r++) {
      const pair = ids[r]! * radix + (column[r]! + 1);
      let id = table[pair]!;
      if (id === -1) table[pair] = id = next++;
      out[r] = id;
    }
  } else {
    // Records ordered by class (a counting sort), then each class split by code: stamp[code] says
    // which class last gave that code an id, so one array of codes serves every class.
    const start = new Int32Array(classes + 1);
    for (let r = 0; r < n; r++) start[ids[r]! + 1]!++;
    for (let c = 0; c < classes; c++) start[c + 1]! += start[c]!;
    const order = scratch.order;
    for (let r = 0; r < n; r++) order[start[ids[r]!]!++] = r;
    const stamp = new Int32Array(radix).fill(-1);
    const idOf = new Int32Array(radix);
    for (let i = 0; i < n; i++) {
      const r = order[i]!;
      const parent = ids[r]!;
      const code = column[r]! + 1;
      if (stamp[code] !== parent) {
        stamp[code] = parent;
        idOf[code] = next++;
      }
      out[r] = idOf[code]!;
    }
  }
  return next;
}
