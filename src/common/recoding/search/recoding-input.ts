import type { Column } from '../../table/table.js';
import { HierarchyError, type Hierarchy } from '../hierarchy.js';

/**
 * One quasi-identifier as the lattice search sees it: level-0 codes per record and, per level of
 * its hierarchy, where each code goes one level up. Code 0 is "missing" at every level (it stays
 * missing, as generalizeColumn keeps it).
 */
export interface QuasiColumn {
  readonly name: string;
  /** Level-0 code per record. */
  readonly codes: Uint32Array;
  /** Number of levels (1 without a hierarchy). */
  readonly depth: number;
  /** cardinality[l]: codes at level l lie in [0, cardinality[l]). */
  readonly cardinality: readonly number[];
  /** up[l][code at level l] = its code at level l + 1 (l < depth − 1): the roll-up needs nested levels. */
  readonly up: readonly Uint32Array[];
  /** lift[l][level-0 code] = its code at level l. */
  readonly lift: readonly Uint32Array[];
  /** share[l][code]: the share of the domain a level-l value covers (ARX's DomainShare). */
  readonly share: readonly Float64Array[];
  /** The domain's size in ARX's Loss normalization (the hierarchy's rows). */
  readonly domainSize: number;
  /** labels[l][code]: the generalized value, for the release. */
  readonly labels: readonly (readonly string[])[];
}

/** The sensitive column for ℓ-diversity and t-closeness: codes in [0, values). */
export interface SensitiveColumn {
  readonly name: string;
  readonly codes: Uint32Array;
  readonly values: number;
  /** rank[code]: position in the value order (ordered distance); codes absent from the data are ranked too. */
  readonly rank: Uint32Array;
  /** Hierarchical distance: ancestor[l][code] for l = 1 … height (the top level is one node). */
  readonly ancestors?: readonly Uint32Array[];
}

/**
 * A quasi-identifier at every level of its hierarchy. Shares follow ARX's DomainShareMaterialized
 * for hierarchies given as a table (values covered at that level / rows of the hierarchy); for
 * hierarchies defined by rule (intervals, masking, dates), which list no domain, the share is the
 * values covered / the column's distinct values, capped at 1, and "*" covers everything.
 */
export function quasiColumn(column: Column, hierarchy: Hierarchy | undefined): QuasiColumn {
  const depth = hierarchy ? hierarchy.depth : 1;
  const size = column.dictionary.length;
  const domainSize = hierarchy?.leaves ?? Math.max(1, column.distinct);
  const lift: Uint32Array[] = [];
  const labels: string[][] = [];
  const share: Float64Array[] = [];
  for (let level = 0; level < depth; level++) {
    const map = new Uint32Array(size);
    const dictionary = [''];
    const index = new Map<string, number>();
    const shares: number[] = [1 / domainSize];
    for (let code = 1; code < size; code++) {
      const value = level === 0 ? column.dictionary[code]! : hierarchy!.generalize(column.dictionary[code]!, level);
      if (value === undefined) throw new HierarchyError(`"${column.dictionary[code]}" of "${column.name}" has no generalization at level ${level}`);
      let target = index.get(value);
      if (target === undefined) {
        target = dictionary.length;
        dictionary.push(value);
        index.set(value, target);
        const covered = level === 0 ? 1 : hierarchy!.coverage(value, level);
        shares.push(Math.min(1, Math.min(covered, domainSize) / domainSize));
      }
      map[code] = target;
    }
    lift.push(map);
    labels.push(dictionary);
    share.push(Float64Array.from(shares));
  }
  const up: Uint32Array[] = [];
  for (let level = 0; level + 1 < depth; level++) {
    const step = new Uint32Array(labels[level]!.length).fill(0xffffffff);
    step[0] = 0;
    for (let code = 1; code < size; code++) {
      const from = lift[level]![code]!;
      const to = lift[level + 1]![code]!;
      if (step[from] !== 0xffffffff && step[from] !== to) {
        throw new HierarchyError(`the hierarchy of "${column.name}" is not nested: "${labels[level]![from]}" at level ${level} generalizes to both "${labels[level + 1]![step[from]!]}" and "${labels[level + 1]![to]}" at level ${level + 1}`);
      }
      step[from] = to;
    }
    up.push(step);
  }
  return { name: column.name, codes: column.codes, depth, cardinality: labels.map((l) => l.length), up, lift, share, domainSize, labels };
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * The sensitive column: its codes, the value order for ordered distance (numeric when every value
 * is a number, otherwise by code units), and the hierarchy's ancestors for hierarchical distance.
 */
export function sensitiveColumn(column: Column, hierarchy?: Hierarchy): SensitiveColumn {
  const values = column.dictionary.length;
  const numeric = column.dictionary.slice(1).every((v) => NUMBER.test(v.trim()));
  const order = Array.from({ length: values }, (_, code) => code).sort((a, b) => {
    if (a === 0 || b === 0) return a === 0 ? (b === 0 ? 0 : -1) : 1;
    const x = column.dictionary[a]!;
    const y = column.dictionary[b]!;
    if (numeric) return Number(x) - Number(y);
    return x < y ? -1 : x > y ? 1 : 0;
  });
  const rank = new Uint32Array(values);
  order.forEach((code, position) => (rank[code] = position));
  if (!hierarchy) return { name: column.name, codes: column.codes, values, rank };
  const ancestors: Uint32Array[] = [];
  for (let level = 1; level < hierarchy.depth; level++) {
    const index = new Map<string, number>();
    const map = new Uint32Array(values);
    for (let code = 1; code < values; code++) {
      const g = hierarchy.generalize(column.dictionary[code]!, level);
      if (g === undefined) throw new HierarchyError(`"${column.dictionary[code]}" of "${column.name}" has no generalization at level ${level}`);
      let id = index.get(g);
      if (id === undefined) index.set(g, (id = index.size + 1));
      map[code] = id;
    }
    ancestors.push(map);
  }
  return { name: column.name, codes: column.codes, values, rank, ancestors };
}
