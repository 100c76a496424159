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
 * Class ids of the records on the attributes in `attributes` (missing as its own value, -1 + 1 = 0):
 * equal ids = equal values on every listed attribute. Ids are dense, 0 … classes - 1. Refines one
 * attribute at a time, so each step's pair (class so far, code) is below 2^53 for any table that fits
 * in memory.
 */
export function classIds(keys: KeyCodes, attributes: readonly number[], out: Int32Array = new Int32Array(keys.records)): { ids: Int32Array; classes: number } {
  const n = keys.records;
  out.fill(0);
  let classes = n === 0 ? 0 : 1;
  const numbering = new Map<number, number>();
  for (const a of attributes) {
    const column = keys.codes[a]!;
    const radix = keys.cardinality[a]! + 1;
    numbering.clear();
    for (let r = 0; r < n; r++) {
      const pair = out[r]! * radix + (column[r]! + 1);
      let id = numbering.get(pair);
      if (id === undefined) {
        id = numbering.size;
        numbering.set(pair, id);
      }
      out[r] = id;
    }
    classes = numbering.size;
  }
  return { ids: out, classes };
}
