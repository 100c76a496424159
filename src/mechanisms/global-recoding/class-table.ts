import { tupleIds, type KeyColumn } from '../../common/table/tuple-ids.js';
import type { QuasiColumn } from './recoding-input.js';

/**
 * The equivalence classes of one lattice node: per quasi-identifier the class's code at the node's
 * level, its number of records and, when a model needs it, its histogram of sensitive values.
 */
export interface ClassTable {
  readonly count: number;
  /** codes[j][c]: class c's code in column j at the node's level of column j. */
  readonly codes: readonly Uint32Array[];
  readonly sizes: Uint32Array;
  /** hist[c · values + v]: records of class c with sensitive code v; null without a sensitive column. */
  readonly hist: Uint32Array | null;
  readonly values: number;
}

/** The classes of a node computed from the records (the bottom of the roll-up, and the brute-force oracle). */
export function classesAt(columns: readonly QuasiColumn[], node: readonly number[], sensitive: { codes: Uint32Array; values: number } | undefined, rowCount: number): ClassTable & { readonly classOf: Uint32Array } {
  const keys: KeyColumn[] = columns.map((c, j) => {
    const lift = c.lift[node[j]!]!;
    return { codes: node[j] === 0 ? c.codes : Uint32Array.from(c.codes, (code) => lift[code]!), cardinality: c.cardinality[node[j]!]! };
  });
  const { ids, count } = tupleIds(keys, null, rowCount);
  const codes = keys.map(() => new Uint32Array(count));
  const sizes = new Uint32Array(count);
  const values = sensitive?.values ?? 0;
  const hist = sensitive ? new Uint32Array(count * values) : null;
  for (let r = 0; r < rowCount; r++) {
    const c = ids[r]!;
    if (sizes[c]++ === 0) for (let j = 0; j < keys.length; j++) codes[j]![c] = keys[j]!.codes[r]!;
    if (hist) hist[c * values + sensitive!.codes[r]!]!++;
  }
  return { count, codes, sizes, hist, values, classOf: ids };
}

/**
 * The classes one level up in column j, from the classes of the node below: the column's codes
 * move up one level, and classes that become identical merge (sizes and histograms add). The work
 * is the parent's number of classes, never the records.
 */
export function rollUp(parent: ClassTable, columns: readonly QuasiColumn[], node: readonly number[], j: number): ClassTable {
  const from = node[j]! - 1;
  const step = columns[j]!.up[from]!;
  const moved = Uint32Array.from(parent.codes[j]!, (code) => step[code]!);
  const keys: KeyColumn[] = columns.map((c, i) => ({ codes: i === j ? moved : parent.codes[i]!, cardinality: c.cardinality[node[i]!]! }));
  const { ids, count } = tupleIds(keys, null, parent.count);
  const codes = keys.map(() => new Uint32Array(count));
  const sizes = new Uint32Array(count);
  const { values } = parent;
  const hist = parent.hist ? new Uint32Array(count * values) : null;
  for (let p = 0; p < parent.count; p++) {
    const c = ids[p]!;
    if (sizes[c] === 0) for (let i = 0; i < keys.length; i++) codes[i]![c] = keys[i]!.codes[p]!;
    sizes[c]! += parent.sizes[p]!;
    if (hist) {
      const src = p * values;
      const dst = c * values;
      for (let v = 0; v < values; v++) hist[dst + v]! += parent.hist![src + v]!;
    }
  }
  return { count, codes, sizes, hist, values };
}
