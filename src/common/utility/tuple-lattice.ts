import { denseIds, SAFE_KEY_LIMIT, tupleIds } from '../table/tuple-ids.js';

/**
 * Counting over distinct tuples instead of rows. A census of a million rows has
 * far fewer distinct combinations of its non-sensitive columns (its micro
 * groups) than rows, and far fewer still once its widest columns are left out:
 * on the 1M-row benchmark census, 351,207 micro groups over all nine columns,
 * 36,791 without the region. A count over some columns can be summed from the
 * counts over any superset of them, so each query shape is counted from the
 * smallest table of tuples that holds its columns.
 *
 * The lattice (which tables of tuples exist and how each maps onto its parent)
 * depends on the non-sensitive columns only: it is built once per set of
 * columns and reused for the pool's draw and for every release it is answered
 * on. What depends on the sensitive values (the weight of each tuple with each
 * sensitive value) is summed per release, each table from its parent.
 */

/** What the lattice needs of a column: its codes and its dictionary's size. */
export interface LatticeColumn {
  readonly codes: Uint32Array;
  readonly dictionary: { readonly length: number };
}

/** One table of distinct tuples over a set of columns. */
export interface LatticeNode {
  /** Column indices, ascending. */
  readonly attributes: readonly number[];
  readonly groupCount: number;
  /** The node it is summed from (−1 for the base, which is summed from rows); parents come first. */
  readonly parent: number;
  /** The group of this node that each group of the parent falls into (null for the base). */
  readonly groupOfParent: Uint32Array | null;
  /** Per attribute (same order as attributes): the code of each group. */
  readonly codes: readonly Uint32Array[];
}

/** Micro groups a caller formed over the lattice's columns; with their rows group after group (rows ascending within a group), when it has them. */
export interface BaseGroups {
  readonly groupOfRow: Uint32Array;
  readonly groupCount: number;
  readonly offsets?: Uint32Array;
  readonly rowsByGroup?: Uint32Array;
  /** The groups' counts of one sensitive column's values, when the caller counted them anyway: the base's weighting of the rows with `sensitive`. */
  readonly valueCounts?: BaseValueCounts;
}

/** Each group's distinct values of `sensitive` and their counts: group g's are entries [start[g], start[g+1]). */
export interface BaseValueCounts {
  readonly sensitive: Uint32Array;
  readonly start: Uint32Array;
  readonly values: Uint32Array;
  readonly counts: Uint32Array;
}

export interface TupleLattice {
  /** The base group (node 0) of each input row. */
  readonly groupOfRow: Uint32Array;
  readonly nodes: readonly LatticeNode[];
  /** The base's weighting of the input rows with one sensitive column, when its groups came with their value counts. */
  readonly baseCounts?: BaseValueCounts;
}

/** A child is kept only when it has at most this share of its parent's groups (else summing from the parent costs nearly the same). */
const KEEP_CHILD = 0.6;
/** Nodes with more groups choose which columns to try leaving out from a sample of their groups. */
const SAMPLE_ABOVE = 20_000;
const SAMPLE_STEP = 16;
/** A sampled share above this leaves no hope for the full node. */
const SAMPLED_KEEP = 0.9;
/** At most this many children of one node are built (the smallest by the sample). */
const MAX_CHILDREN = 2;

/** Ids of the distinct tuples of `codes` (one array per column, radices given) over items 0 … n−1, or over every step-th item. */
function tupleIdsOf(codes: readonly Uint32Array[], radices: readonly number[], n: number, step = 1, expected = 0): { ids: Uint32Array; count: number } {
  const product = radices.reduce((x, y) => x * y, 1);
  if (product >= SAFE_KEY_LIMIT) {
    const picked = step === 1 ? null : Uint32Array.from({ length: Math.ceil(n / step) }, (_, i) => i * step);
    return tupleIds(codes.map((c, j) => ({ codes: c, cardinality: radices[j]! })), picked, n);
  }
  const count = Math.ceil(n / step);
  const keys = new Float64Array(count);
  codes.forEach((c, j) => {
    const radix = radices[j]!;
    for (let i = 0, at = 0; i < count; i++, at += step) keys[i] = keys[i]! * radix + c[at]!;
  });
  return denseIds(keys, count, expected);
}

function gatherCodes(codes: Uint32Array, rows: Uint32Array): Uint32Array {
  const out = new Uint32Array(rows.length);
  for (let i = 0; i < rows.length; i++) out[i] = codes[rows[i]!]!;
  return out;
}

/** The codes of each group of a child for the attributes it keeps, read at each child group's first parent group. */
function childCodes(node: LatticeNode, keep: readonly number[], groupOfParent: Uint32Array, groupCount: number): Uint32Array[] {
  const first = new Uint32Array(groupCount);
  for (let g = groupOfParent.length - 1; g >= 0; g--) first[groupOfParent[g]!] = g;
  return keep.map((a) => gatherCodes(node.codes[node.attributes.indexOf(a)]!, first));
}

/**
 * Each group's mixed-radix key over all of a node's columns, and each column's
 * multiplier in it, when the key stays exact in a double: a child's key is then
 * the node's key less one column's part, one pass instead of one per column.
 */
function nodeKeys(node: LatticeNode, radix: readonly number[]): { keys: Float64Array; multiplier: number[] } | null {
  const product = node.attributes.reduce((x, a) => x * radix[a]!, 1);
  if (product >= SAFE_KEY_LIMIT) return null;
  const keys = new Float64Array(node.groupCount);
  node.codes.forEach((c, j) => {
    const r = radix[node.attributes[j]!]!;
    for (let g = 0; g < keys.length; g++) keys[g] = keys[g]! * r + c[g]!;
  });
  const multiplier = node.attributes.map(() => 1);
  for (let j = node.attributes.length - 2; j >= 0; j--) multiplier[j] = multiplier[j + 1]! * radix[node.attributes[j + 1]!]!;
  return { keys, multiplier };
}

/** Ids of the node's distinct tuples without column `drop` (its j-th), over every step-th group. */
function idsWithout(whole: { keys: Float64Array; multiplier: number[] }, dropped: Uint32Array, j: number, n: number, step: number, expected = 0): { ids: Uint32Array; count: number } {
  const count = Math.ceil(n / step);
  const keys = new Float64Array(count);
  const mult = whole.multiplier[j]!;
  const from = whole.keys;
  for (let i = 0, at = 0; i < count; i++, at += step) keys[i] = from[at]! - dropped[at]! * mult;
  return denseIds(keys, count, expected);
}

/**
 * The lattice over all the given columns: the micro groups (`groupOfRow`, when
 * the caller has them, else formed here) as the base; below a node, up to two
 * tables each one column narrower that have markedly fewer groups (which
 * columns to try judged from a sample of a large node's groups), and below
 * each of those again, while the tables keep shrinking.
 */
export function buildTupleLattice(columns: readonly LatticeColumn[], rowCount: number, base?: BaseGroups): TupleLattice {
  const radix = columns.map((c) => c.dictionary.length);
  const { ids: groupOfRow, count: groupCount } = base
    ? { ids: base.groupOfRow, count: base.groupCount }
    : tupleIds(columns.map((c) => ({ codes: c.codes, cardinality: c.dictionary.length })), null, rowCount);
  // Each base group's codes, from its first row.
  const firstRow = new Uint32Array(groupCount);
  if (base?.offsets && base.rowsByGroup) for (let g = 0; g < groupCount; g++) firstRow[g] = base.rowsByGroup[base.offsets[g]!]!;
  else for (let r = rowCount - 1; r >= 0; r--) firstRow[groupOfRow[r]!] = r;
  const baseCodes = columns.map((c) => gatherCodes(c.codes, firstRow));
  const nodes: LatticeNode[] = [{ attributes: columns.map((_, i) => i), groupCount, parent: -1, groupOfParent: null, codes: baseCodes }];
  const known = new Set<string>([nodes[0]!.attributes.join(',')]);
  for (let at = 0; at < nodes.length; at++) {
    const node = nodes[at]!;
    if (node.attributes.length <= 1 || node.groupCount < 2) continue;
    const codesOf = (keep: readonly number[]): Uint32Array[] => keep.map((a) => node.codes[node.attributes.indexOf(a)]!);
    const whole = nodeKeys(node, radix);
    const idsOf = (drop: number, step: number, expected = 0): { ids: Uint32Array; count: number } => {
      const j = node.attributes.indexOf(drop);
      if (whole) return idsWithout(whole, node.codes[j]!, j, node.groupCount, step, expected);
      const keep = node.attributes.filter((a) => a !== drop);
      return tupleIdsOf(codesOf(keep), keep.map((a) => radix[a]!), node.groupCount, step, expected);
    };
    const step = node.groupCount > SAMPLE_ABOVE ? SAMPLE_STEP : 1;
    const sampled = Math.ceil(node.groupCount / step);
    // Each column left out in turn, on a sample of the groups: the candidates with the fewest groups first.
    const candidates = node.attributes
      .map((drop) => {
        const keep = node.attributes.filter((a) => a !== drop);
        const ids = idsOf(drop, step);
        return { drop, keep, share: ids.count / sampled, full: step === 1 ? ids : null };
      })
      // A sample merges fewer groups than the whole node: its shares rank the columns, the full count decides.
      .filter((c) => c.share <= (step === 1 ? KEEP_CHILD : SAMPLED_KEEP) && !known.has(c.keep.join(',')))
      .sort((a, b) => a.share - b.share)
      .slice(0, MAX_CHILDREN);
    for (const { drop, keep, full, share } of candidates) {
      // The table sized for the sampled share of groups (an overestimate: the sample merges fewer).
      const { ids, count } = full ?? idsOf(drop, 1, share * node.groupCount);
      if (count > node.groupCount * KEEP_CHILD) continue;
      known.add(keep.join(','));
      nodes.push({ attributes: keep, groupCount: count, parent: at, groupOfParent: ids, codes: childCodes(node, keep, ids, count) });
    }
  }
  return { groupOfRow, nodes, ...(base?.valueCounts ? { baseCounts: base.valueCounts } : {}) };
}

/** The node with the fewest groups that holds every attribute of a shape. */
export function nodeFor(lattice: TupleLattice, attributes: readonly number[]): number {
  let best = 0;
  lattice.nodes.forEach((node, i) => {
    if (node.groupCount < lattice.nodes[best]!.groupCount && attributes.every((a) => node.attributes.includes(a))) best = i;
  });
  return best;
}

/** A node's groups weighted by sensitive value: entry e is group gid[e] with value x[e], weight w[e]; entries come in order of group, or nearly. */
export interface Weighted {
  readonly gid: Uint32Array;
  readonly x: Uint32Array;
  readonly w: Uint32Array;
  readonly length: number;
}

/** The largest groups × sensitive values table the weighting sums in (256 MiB); a larger base is answered from the rows. */
export const MAX_WEIGHT_CELLS = 2 ** 26;

/** Cells per bucket when keys are first split by range, so each bucket's cells stay in cache. */
const BUCKET_BITS = 16;
const BUCKET_CELLS = 1 << BUCKET_BITS;

// The summing loops (plain functions of their arrays, compiled once).
function keysOfRows(keys: Uint32Array, groupOfRow: Uint32Array, sensitive: Uint32Array, m: number): void {
  for (let r = 0; r < sensitive.length; r++) keys[r] = groupOfRow[r]! * m + sensitive[r]!;
}
function keysOfRowsVia(keys: Uint32Array, groupOfRow: Uint32Array, sourceRow: Uint32Array, sensitive: Uint32Array, m: number): void {
  for (let r = 0; r < sensitive.length; r++) keys[r] = groupOfRow[sourceRow[r]!]! * m + sensitive[r]!;
}
function keysOfEntries(keys: Uint32Array, map: Uint32Array, from: Weighted, m: number): void {
  const { gid, x } = from;
  for (let i = 0; i < from.length; i++) keys[i] = map[gid[i]!]! * m + x[i]!;
}

/** Sums one bucket's keys (less `offset`, below BUCKET_CELLS) into entries from `e` on; returns the new entry count. */
function sumBucket(keys: Uint32Array, weights: Uint32Array | null, from: number, to: number, offset: number, cells: Uint32Array, touched: Uint32Array, out: Weighted, e: number, m: number): number {
  let distinct = 0;
  if (weights) {
    for (let at = from; at < to; at++) {
      const k = keys[at]! - offset;
      if (cells[k] === 0) touched[distinct++] = k;
      cells[k]! += weights[at]!;
    }
  } else {
    for (let at = from; at < to; at++) {
      const k = keys[at]! - offset;
      if (cells[k]!++ === 0) touched[distinct++] = k;
    }
  }
  // Entries in order of first touch; the cells cleared as they are read.
  const { gid, x, w } = out;
  for (let j = 0; j < distinct; j++) {
    const k = touched[j]!;
    const key = k + offset;
    const g = Math.floor(key / m);
    gid[e] = g;
    x[e] = key - g * m;
    w[e] = cells[k]!;
    cells[k] = 0;
    e++;
  }
  return e;
}

/**
 * Sums weights (1 each without `weights`) by key (group · m + value) into
 * entries. Beyond BUCKET_CELLS cells, the keys are first split into buckets of
 * consecutive keys (a counting sort on the key's high bits) and each bucket is
 * summed on its own: the cells of a million groups × values would not stay in
 * any cache, a bucket's do.
 */
function sumByKey(keys: Uint32Array, weights: Uint32Array | null, length: number, cellCount: number, m: number, scratch: Scratch): Weighted {
  const out = scratch.entries;
  const { cells, touched } = scratch;
  let e: number;
  if (cellCount <= BUCKET_CELLS) e = sumBucket(keys, weights, 0, length, 0, cells, touched, out, 0, m);
  else {
    const buckets = Math.ceil(cellCount / BUCKET_CELLS);
    const start = new Uint32Array(buckets + 1);
    for (let i = 0; i < length; i++) start[(keys[i]! >>> BUCKET_BITS) + 1]!++;
    for (let b = 0; b < buckets; b++) start[b + 1]! += start[b]!;
    const next = start.slice(0, buckets);
    const sortedKeys = scratch.sortedKeys.subarray(0, length);
    const sortedWeights = weights ? scratch.sortedWeights.subarray(0, length) : null;
    if (weights) {
      for (let i = 0; i < length; i++) {
        const at = next[keys[i]! >>> BUCKET_BITS]!++;
        sortedKeys[at] = keys[i]!;
        sortedWeights![at] = weights[i]!;
      }
    } else for (let i = 0; i < length; i++) sortedKeys[next[keys[i]! >>> BUCKET_BITS]!++] = keys[i]!;
    e = 0;
    for (let b = 0; b < buckets; b++) e = sumBucket(sortedKeys, sortedWeights, start[b]!, start[b + 1]!, b * BUCKET_CELLS, cells, touched, out, e, m);
  }
  return finished(out, e);
}

/** Work arrays shared by the nodes of one weighting. */
interface Scratch {
  readonly entries: Weighted;
  readonly cells: Uint32Array;
  readonly touched: Uint32Array;
  readonly sortedKeys: Uint32Array;
  readonly sortedWeights: Uint32Array;
}

/**
 * The base's weighted groups: from the value counts the base came with when these are the input's
 * own rows with the same sensitive column; summed a group at a time when the rows come group after
 * group (a release handed over before its shuffle); else summed by key. Entries may come in another
 * order either way: every count summed from them is the same.
 */
function weighBase(lattice: TupleLattice, sourceRow: Uint32Array | null, sensitive: Uint32Array, m: number, keys: Uint32Array, scratch: Scratch): Weighted {
  const counted = lattice.baseCounts;
  if (!sourceRow && counted && counted.sensitive === sensitive) return fromValueCounts(counted);
  // Values index a bucket's cells: a domain larger than a bucket is summed by key.
  const inOrder = sourceRow && m <= BUCKET_CELLS ? sumInGroupOrder(lattice.groupOfRow, sourceRow, sensitive, scratch) : -1;
  if (inOrder >= 0) return finished(scratch.entries, inOrder);
  if (sourceRow) keysOfRowsVia(keys, lattice.groupOfRow, sourceRow, sensitive, m);
  else keysOfRows(keys, lattice.groupOfRow, sensitive, m);
  return sumByKey(keys, null, sensitive.length, lattice.nodes[0]!.groupCount * m, m, scratch);
}

/** The counts as the base's entries: their values and counts are the caller's own arrays, which no reader of a weighting writes into. */
function fromValueCounts(counted: BaseValueCounts): Weighted {
  const { start, values, counts } = counted;
  const gid = new Uint32Array(values.length);
  for (let g = 0; g + 1 < start.length; g++) for (let e = start[g]!; e < start[g + 1]!; e++) gid[e] = g;
  return { gid, x: values, w: counts, length: values.length };
}

/**
 * Sums rows that come group after group (groupOfRow[sourceRow[r]] never decreasing) into
 * scratch.entries, each group's values in order of first row, and returns how many entries; −1 at
 * the first row out of order (the cells left clear). Runs of rows of one group would sum right in
 * any order (a group's value may have several entries), but rows in no order make runs of one row.
 */
function sumInGroupOrder(groupOfRow: Uint32Array, sourceRow: Uint32Array, sensitive: Uint32Array, scratch: Scratch): number {
  const { cells, touched } = scratch;
  const { gid, x, w } = scratch.entries;
  const n = sensitive.length;
  let e = 0;
  let previous = -1;
  for (let r = 0; r < n; ) {
    const g = groupOfRow[sourceRow[r]!]!;
    // Each group's run is summed whole, so no cell is left set when a row out of order is met.
    if (g < previous) return -1;
    let distinct = 0;
    for (; r < n && groupOfRow[sourceRow[r]!] === g; r++) {
      const v = sensitive[r]!;
      if (cells[v]!++ === 0) touched[distinct++] = v;
    }
    for (let j = 0; j < distinct; j++) {
      const v = touched[j]!;
      gid[e] = g;
      x[e] = v;
      w[e++] = cells[v]!;
      cells[v] = 0;
    }
    previous = g;
  }
  return e;
}

/** Copies at their final length out of the work arrays sized for every item. */
function finished(out: Weighted, length: number): Weighted {
  return { gid: out.gid.slice(0, length), x: out.x.slice(0, length), w: out.w.slice(0, length), length };
}

/**
 * Adds to `have` the weighted groups of the nodes asked for (and of the nodes
 * they are summed from) for rows showing input row sourceRow[r] (or row r)
 * with sensitive value sensitive[r]; nodes already in `have` are not summed
 * again. False when the base's groups × values would exceed MAX_WEIGHT_CELLS.
 */
export function weightNodes(lattice: TupleLattice, wanted: Iterable<number>, sourceRow: Uint32Array | null, sensitive: Uint32Array, m: number, have: Map<number, Weighted>): boolean {
  const base = lattice.nodes[0]!;
  if (base.groupCount * m > MAX_WEIGHT_CELLS) return false;
  const needed = new Set<number>();
  for (const i of wanted) for (let at = i; at >= 0 && !needed.has(at) && !have.has(at); at = lattice.nodes[at]!.parent) needed.add(at);
  if (needed.size === 0) return true;
  const items = needed.has(0) ? sensitive.length : Math.max(...[...needed].map((i) => have.get(lattice.nodes[i]!.parent)?.length ?? 0));
  const keys = new Uint32Array(items);
  const scratch: Scratch = {
    entries: { gid: new Uint32Array(items), x: new Uint32Array(items), w: new Uint32Array(items), length: 0 },
    cells: new Uint32Array(BUCKET_CELLS),
    touched: new Uint32Array(BUCKET_CELLS),
    sortedKeys: new Uint32Array(items),
    sortedWeights: new Uint32Array(items),
  };
  if (needed.has(0)) have.set(0, weighBase(lattice, sourceRow, sensitive, m, keys, scratch));
  // Parents come before their children in the node list.
  lattice.nodes.forEach((node, i) => {
    if (i === 0 || !needed.has(i)) return;
    const from = have.get(node.parent)!;
    keysOfEntries(keys, node.groupOfParent!, from, m);
    have.set(i, sumByKey(keys, from.w, from.length, node.groupCount * m, m, scratch));
  });
  return true;
}
