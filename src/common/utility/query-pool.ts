import { uniformInt } from '../random/draws.js';
import type { RandomSource } from '../random/source.js';
import { estimateCount } from '../randomized-response/perturbation/estimate.js';
import type { ReleaseRows } from '../table/release-rows.js';
import { sortByCode } from '../table/rows-by-code.js';
import { buildTupleLattice, nodeFor, weightNodes, type BaseGroups, type TupleLattice, type Weighted } from './tuple-lattice.js';

/** What counting needs of a column: its codes, how many values it has, and its dictionary's size. */
export interface CountColumn {
  readonly codes: Uint32Array;
  readonly distinct: number;
  readonly dictionary: { readonly length: number };
}

/** COUNT(*) WHERE A_1=a_1 ∧ … ∧ A_d=a_d ∧ SA=x. */
export interface CountQuery {
  /** Indices into the non-sensitive columns, ascending. */
  readonly attributes: readonly number[];
  /** Dictionary codes, one per attribute. */
  readonly values: readonly number[];
  readonly sensitiveValue: number;
  readonly answer: number;
}

export interface QueryPool {
  readonly queries: readonly CountQuery[];
  readonly requested: number;
  readonly attempts: number;
  readonly minAnswer: number;
}

export interface QueryPoolOptions {
  readonly size: number;
  readonly minSelectivity: number;
  readonly maxAttempts: number;
}

export const PAPER_QUERY_POOL: QueryPoolOptions = { size: 5000, minSelectivity: 0.001, maxAttempts: 2_000_000 };

/** A query's cells: its count with the sensitive value, and its count whatever the sensitive value. */
export interface QueryCounts {
  readonly count: Uint32Array;
  readonly marginal: Uint32Array;
}

type Codes = Uint16Array | Uint32Array;

/** The largest table of combinations × sensitive values counted in full. */
const DENSE_CELLS = 1 << 24;
/** What a row of a full count costs against a row of a posting list, which reads two more columns out of order (measured on the 1M-row census: 0.25-0.5 best). */
const DENSE_COST_PER_ROW = 0.5;

/** The queries that share one set of attributes. */
interface Shape {
  readonly attributes: readonly number[];
  readonly members: number[];
}

function shapesOf(queries: readonly Pick<CountQuery, 'attributes'>[]): Shape[] {
  const byId = new Map<string, Shape>();
  queries.forEach((q, i) => {
    const id = q.attributes.join(',');
    let shape = byId.get(id);
    if (!shape) byId.set(id, (shape = { attributes: q.attributes, members: [] }));
    shape.members.push(i);
  });
  return [...byId.values()];
}

// The counting loops are plain functions of their arrays: V8 compiles each once for every attribute set.
function gather(out: Codes, codes: Uint32Array, rows: Uint32Array): void {
  for (let r = 0; r < rows.length; r++) out[r] = codes[rows[r]!]!;
}
function countAll1(counts: Uint32Array, c0: Codes, sensitive: Uint32Array, m: number): void {
  for (let r = 0; r < sensitive.length; r++) counts[c0[r]! * m + sensitive[r]!]!++;
}
function countAll2(counts: Uint32Array, c0: Codes, c1: Codes, r1: number, sensitive: Uint32Array, m: number): void {
  for (let r = 0; r < sensitive.length; r++) counts[(c0[r]! * r1 + c1[r]!) * m + sensitive[r]!]!++;
}
function countAll3(counts: Uint32Array, c0: Codes, c1: Codes, c2: Codes, r1: number, r2: number, sensitive: Uint32Array, m: number): void {
  for (let r = 0; r < sensitive.length; r++) counts[((c0[r]! * r1 + c1[r]!) * r2 + c2[r]!) * m + sensitive[r]!]!++;
}

/** Rows order[from … to) that also hold v1 in codes1 and v2 in codes2: how many, and how many of them show x. */
function countListed(order: Uint32Array, from: number, to: number, codes1: Codes, v1: number, codes2: Codes, v2: number, sensitive: Uint32Array, x: number, out: Uint32Array): void {
  let matching = 0;
  let withValue = 0;
  for (let at = from; at < to; at++) {
    const r = order[at]!;
    if (codes1[r] !== v1 || codes2[r] !== v2) continue;
    matching++;
    if (sensitive[r] === x) withValue++;
  }
  out[0] = withValue;
  out[1] = matching;
}

/**
 * Answers count queries from the rows (the way before the tuple lattice, kept
 * for shapes too wide to count in full and bases too large to weight). For each attribute set (query "shape") the cheaper of two ways, judged from
 * the values' frequencies before any row is read: count every combination in
 * one pass over the rows, or answer each query from the rows of its rarest
 * value (a posting list), checking the others. The pool's queries mostly ask
 * about frequent single values (counted in full) and few rare combinations
 * (from their lists), so neither way alone is fast. With `needAtLeast`, a query
 * whose rarest value has fewer rows cannot reach it and is answered 0 unread.
 */
export function answerByRows(
  columns: readonly CountColumn[],
  sourceRow: Uint32Array | null,
  sensitive: Uint32Array,
  m: number,
  queries: readonly Pick<CountQuery, 'attributes' | 'values' | 'sensitiveValue'>[],
  needAtLeast = 0,
): QueryCounts {
  const count = new Uint32Array(queries.length);
  const marginal = new Uint32Array(queries.length);
  const n = sensitive.length;
  const shapes = shapesOf(queries);
  const used = [...new Set(shapes.flatMap((s) => s.attributes))];
  // One array type for every column, so each counting loop sees one kind of array.
  const wide = used.some((a) => columns[a]!.dictionary.length > 65536);
  // Each column read once: its codes in row order, and its counts by value and sensitive value
  // (which answer every single-attribute query and give each value's frequency).
  const codes = new Map<number, Codes>();
  const bySensitive = new Map<number, Uint32Array>();
  const frequency = new Map<number, Uint32Array>();
  for (const a of used) {
    const radix = columns[a]!.dictionary.length;
    const out = wide ? new Uint32Array(n) : new Uint16Array(n);
    if (sourceRow) gather(out, columns[a]!.codes, sourceRow);
    else out.set(columns[a]!.codes);
    const counts = new Uint32Array(radix * m);
    countAll1(counts, out, sensitive, m);
    const freq = new Uint32Array(radix);
    for (let code = 0; code < radix; code++) for (let x = 0; x < m; x++) freq[code]! += counts[code * m + x]!;
    codes.set(a, out);
    bySensitive.set(a, counts);
    frequency.set(a, freq);
  }
  const rarest = (q: Pick<CountQuery, 'attributes' | 'values'>): { j: number; rows: number } =>
    q.attributes.reduce((best, a, j) => {
      const rows = frequency.get(a)![q.values[j]!]!;
      return rows < best.rows ? { j, rows } : best;
    }, { j: 0, rows: Infinity });
  const postings = new Map<number, { readonly order: Uint32Array; readonly start: Uint32Array }>();
  const postingsOf = (a: number) => {
    let p = postings.get(a);
    if (!p) postings.set(a, (p = sortByCode(codes.get(a)!, columns[a]!.dictionary.length)));
    return p;
  };
  const settle = (i: number, counts: Uint32Array, base: number): void => {
    count[i] = counts[base + queries[i]!.sensitiveValue]!;
    let total = 0;
    for (let x = 0; x < m; x++) total += counts[base + x]!;
    marginal[i] = total;
  };
  const pair = new Uint32Array(2);
  let zeros: Codes | undefined;
  for (const shape of shapes) {
    const d = shape.attributes.length;
    const radices = shape.attributes.map((a) => columns[a]!.dictionary.length);
    const cells = radices.reduce((x, y) => x * y, m);
    const listed = shape.members.reduce((sum, i) => {
      const rows = rarest(queries[i]!).rows;
      return sum + (rows >= needAtLeast ? rows : 0);
    }, 0);
    if (d === 1) {
      for (const i of shape.members) settle(i, bySensitive.get(shape.attributes[0]!)!, queries[i]!.values[0]! * m);
      continue;
    }
    if (cells <= DENSE_CELLS && n * DENSE_COST_PER_ROW < listed) {
      const counts = new Uint32Array(cells);
      const [c0, c1, c2] = shape.attributes.map((a) => codes.get(a)!);
      if (d === 2) countAll2(counts, c0!, c1!, radices[1]!, sensitive, m);
      else countAll3(counts, c0!, c1!, c2!, radices[1]!, radices[2]!, sensitive, m);
      for (const i of shape.members) settle(i, counts, queries[i]!.values.reduce((k, v, j) => k * radices[j]! + v, 0) * m);
      continue;
    }
    for (const i of shape.members) {
      const q = queries[i]!;
      const { j: shortest, rows } = rarest(q);
      if (rows < needAtLeast) continue;
      const list = postingsOf(q.attributes[shortest]!);
      // Up to two other attributes to check; a missing one is a column of zeros asked for zero.
      const others = q.attributes.flatMap((a, j) => (j === shortest ? [] : [{ codes: codes.get(a)!, value: q.values[j]! }]));
      zeros ??= wide ? new Uint32Array(n) : new Uint16Array(n);
      const o1 = others[0] ?? { codes: zeros, value: 0 };
      const o2 = others[1] ?? { codes: zeros, value: 0 };
      countListed(list.order, list.start[q.values[shortest]!]!, list.start[q.values[shortest]! + 1]!, o1.codes, o1.value, o2.codes, o2.value, sensitive, q.sensitiveValue, pair);
      count[i] = pair[0]!;
      marginal[i] = pair[1]!;
    }
  }
  return { count, marginal };
}

// The counting loops over a lattice node's weighted groups, one per shape width.
function sum1(counts: Uint32Array, t: Weighted, c0: Uint32Array, m: number): void {
  const { gid, x, w } = t;
  for (let e = 0; e < t.length; e++) counts[c0[gid[e]!]! * m + x[e]!]! += w[e]!;
}
function sum2(counts: Uint32Array, t: Weighted, c0: Uint32Array, c1: Uint32Array, r1: number, m: number): void {
  const { gid, x, w } = t;
  for (let e = 0; e < t.length; e++) {
    const g = gid[e]!;
    counts[(c0[g]! * r1 + c1[g]!) * m + x[e]!]! += w[e]!;
  }
}
function sum3(counts: Uint32Array, t: Weighted, c0: Uint32Array, c1: Uint32Array, c2: Uint32Array, r1: number, r2: number, m: number): void {
  const { gid, x, w } = t;
  for (let e = 0; e < t.length; e++) {
    const g = gid[e]!;
    counts[((c0[g]! * r1 + c1[g]!) * r2 + c2[g]!) * m + x[e]!]! += w[e]!;
  }
}

// The same loops into the slots of the queried tuples only: `slot` maps a tuple to its slot or −1,
// a table one m-th the size of the full count, so it stays in cache for wide shapes.
function slots1(counts: Uint32Array, t: Weighted, slot: Int32Array, c0: Uint32Array, m: number): void {
  const { gid, x, w } = t;
  for (let e = 0; e < t.length; e++) {
    const s = slot[c0[gid[e]!]!]!;
    if (s >= 0) counts[s * m + x[e]!]! += w[e]!;
  }
}
function slots2(counts: Uint32Array, t: Weighted, slot: Int32Array, c0: Uint32Array, c1: Uint32Array, r1: number, m: number): void {
  const { gid, x, w } = t;
  for (let e = 0; e < t.length; e++) {
    const g = gid[e]!;
    const s = slot[c0[g]! * r1 + c1[g]!]!;
    if (s >= 0) counts[s * m + x[e]!]! += w[e]!;
  }
}
function slots3(counts: Uint32Array, t: Weighted, slot: Int32Array, c0: Uint32Array, c1: Uint32Array, c2: Uint32Array, r1: number, r2: number, m: number): void {
  const { gid, x, w } = t;
  for (let e = 0; e < t.length; e++) {
    const g = gid[e]!;
    const s = slot[(c0[g]! * r1 + c1[g]!) * r2 + c2[g]!]!;
    if (s >= 0) counts[s * m + x[e]!]! += w[e]!;
  }
}

/** One lattice per set of columns, kept while the columns are: the pool's draw and every release answered on it share it. */
const lattices = new WeakMap<readonly CountColumn[], { readonly codes: readonly Uint32Array[]; readonly lattice: TupleLattice }>();
/** Micro groups of exactly these columns that a mechanism formed anyway: the lattice's base, when it is built. */
const microGroups = new WeakMap<readonly CountColumn[], BaseGroups>();

/**
 * Offers the micro groups a mechanism formed over exactly these columns (in
 * this order, over all input rows) as the base of their tuple lattice, so it
 * need not group the rows again.
 */
export function offerMicroGroups(columns: readonly CountColumn[], grouping: BaseGroups): void {
  if (!lattices.has(columns)) microGroups.set(columns, grouping);
}

/** The tuple lattice of the columns, built on first use and kept with the columns array. */
export function latticeOf(columns: readonly CountColumn[]): TupleLattice {
  const cached = lattices.get(columns);
  if (cached && cached.codes.length === columns.length && cached.codes.every((c, i) => c === columns[i]!.codes)) return cached.lattice;
  const lattice = buildTupleLattice(columns, columns[0]?.codes.length ?? 0, microGroups.get(columns));
  microGroups.delete(columns);
  lattices.set(columns, { codes: columns.map((c) => c.codes), lattice });
  return lattice;
}

/**
 * Answers many count queries over a table whose rows are given by reference
 * (row r shows input row sourceRow[r], or row r without sourceRow, with
 * sensitive value sensitive[r]). The rows are first summed into the columns'
 * distinct tuples (see tuple-lattice.ts); each query shape (set of attributes)
 * is then counted in full from the smallest table of tuples holding it. Shapes
 * too wide to count in full (and every shape when the base is too large to
 * weigh) are answered from the rows (answerByRows). With `needAtLeast`, a query
 * that cannot reach it (one of its pairs, or its rarest value on the rows'
 * path, already falls short) may be answered 0 with its marginal 0; every
 * other answer is exact.
 */
export function answerQueries(
  columns: readonly CountColumn[],
  sourceRow: Uint32Array | null,
  sensitive: Uint32Array,
  m: number,
  queries: readonly Pick<CountQuery, 'attributes' | 'values' | 'sensitiveValue'>[],
  needAtLeast = 0,
): QueryCounts {
  return tupleCounter(columns, sourceRow, sensitive, m)(queries, needAtLeast);
}

/**
 * answerQueries for one set of rows and several batches of queries: the rows
 * are summed into each table of tuples once, when a batch first needs it. With
 * `needAtLeast`, the pairs of attributes are counted first, and a query over
 * three attributes that one of its pairs (with its sensitive value) already
 * keeps below `needAtLeast` is answered 0 uncounted; a shape left with no
 * query is not counted at all.
 */
export function tupleCounter(
  columns: readonly CountColumn[],
  sourceRow: Uint32Array | null,
  sensitive: Uint32Array,
  m: number,
): (queries: readonly Pick<CountQuery, 'attributes' | 'values' | 'sensitiveValue'>[], needAtLeast?: number) => QueryCounts {
  const weighted = new Map<number, Weighted>();
  /** Pair tables kept across batches (a few thousand cells each). */
  const pairs = new Map<string, Uint32Array>();
  let tooLarge = false;
  let lattice: TupleLattice | undefined;
  /** Weighs the nodes the shapes need that are not weighed yet; false when the base is too large to weigh. */
  const weigh = (nodes: readonly number[]): boolean => {
    return weightNodes(lattice!, nodes, sourceRow, sensitive, m, weighted);
  };
  /** Counts a shape in full into counts[0 … cells). */
  const countShape = (attributes: readonly number[], radices: readonly number[], node: number, counts: Uint32Array, cells: number): void => {
    const t = weighted.get(node)!;
    const at = lattice!.nodes[node]!;
    const [c0, c1, c2] = attributes.map((a) => at.codes[at.attributes.indexOf(a)]!);
    counts.fill(0, 0, cells);
    if (attributes.length === 1) sum1(counts, t, c0!, m);
    else if (attributes.length === 2) sum2(counts, t, c0!, c1!, radices[1]!, m);
    else sum3(counts, t, c0!, c1!, c2!, radices[1]!, radices[2]!, m);
  };
  const radicesOf = (attributes: readonly number[]): number[] => attributes.map((a) => columns[a]!.dictionary.length);
  return (queries, needAtLeast = 0) => {
    const count = new Uint32Array(queries.length);
    const marginal = new Uint32Array(queries.length);
    if (queries.length === 0) return { count, marginal };
    if (tooLarge) return answerByRows(columns, sourceRow, sensitive, m, queries, needAtLeast);
    lattice ??= latticeOf(columns);
    const wide: number[] = [];
    const plans = shapesOf(queries).flatMap((shape) => {
      const radices = radicesOf(shape.attributes);
      const cells = radices.reduce((x, y) => x * y, m);
      if (cells > DENSE_CELLS || shape.attributes.length > 3) {
        wide.push(...shape.members);
        return [];
      }
      return [{ shape, radices, cells, node: nodeFor(lattice!, shape.attributes), members: shape.members }];
    });
    if (needAtLeast > 0) {
      // The pairs inside the three-attribute shapes, counted (and kept) first: they bound their queries.
      const wanted = new Map<string, readonly number[]>();
      for (const p of plans) {
        if (p.shape.attributes.length !== 3) continue;
        const [a, b, c] = p.shape.attributes as [number, number, number];
        for (const pair of [[a, b], [a, c], [b, c]]) if (!pairs.has(pair.join(','))) wanted.set(pair.join(','), pair);
      }
      const pairNodes = [...wanted.values()].map((pair) => nodeFor(lattice!, pair));
      if (!weigh(pairNodes)) {
        tooLarge = true;
        return answerByRows(columns, sourceRow, sensitive, m, queries, needAtLeast);
      }
      [...wanted].forEach(([id, pair], k) => {
        const radices = radicesOf(pair);
        const cells = radices[0]! * radices[1]! * m;
        const counts = new Uint32Array(cells);
        countShape(pair, radices, pairNodes[k]!, counts, cells);
        pairs.set(id, counts);
      });
      for (const p of plans) {
        if (p.shape.attributes.length !== 3) continue;
        const [a, b, c] = p.shape.attributes;
        const [, r1, r2] = p.radices as [number, number, number];
        const ab = pairs.get(`${a},${b}`)!;
        const ac = pairs.get(`${a},${c}`)!;
        const bc = pairs.get(`${b},${c}`)!;
        p.members = p.members.filter((i) => {
          const q = queries[i]!;
          const [v0, v1, v2] = q.values as [number, number, number];
          const x = q.sensitiveValue;
          return ab[(v0 * r1 + v1) * m + x]! >= needAtLeast && ac[(v0 * r2 + v2) * m + x]! >= needAtLeast && bc[(v1 * r2 + v2) * m + x]! >= needAtLeast;
        });
      }
    }
    const live = plans.filter((p) => p.members.length > 0);
    if (!weigh(live.map((p) => p.node))) {
      tooLarge = true;
      return answerByRows(columns, sourceRow, sensitive, m, queries, needAtLeast);
    }
    const slot = new Int32Array(live.reduce((most, p) => Math.max(most, p.cells / m), 0)).fill(-1);
    const slotCounts = new Uint32Array(live.reduce((most, p) => Math.max(most, p.members.length), 0) * m);
    const tupleOf = new Uint32Array(slotCounts.length / m);
    for (const { shape, radices, node, members } of live) {
      let used = 0;
      members.forEach((i, k) => {
        const tuple = queries[i]!.values.reduce((key, v, j) => key * radices[j]! + v, 0);
        tupleOf[k] = tuple;
        if (slot[tuple]! < 0) slot[tuple] = used++;
      });
      slotCounts.fill(0, 0, used * m);
      const t = weighted.get(node)!;
      const at = lattice.nodes[node]!;
      const [c0, c1, c2] = shape.attributes.map((a) => at.codes[at.attributes.indexOf(a)]!);
      if (shape.attributes.length === 1) slots1(slotCounts, t, slot, c0!, m);
      else if (shape.attributes.length === 2) slots2(slotCounts, t, slot, c0!, c1!, radices[1]!, m);
      else slots3(slotCounts, t, slot, c0!, c1!, c2!, radices[1]!, radices[2]!, m);
      members.forEach((i, k) => {
        const base = slot[tupleOf[k]!]! * m;
        count[i] = slotCounts[base + queries[i]!.sensitiveValue]!;
        let total = 0;
        for (let x = 0; x < m; x++) total += slotCounts[base + x]!;
        marginal[i] = total;
      });
      for (let k = 0; k < members.length; k++) slot[tupleOf[k]!] = -1;
    }
    if (wide.length > 0) {
      const rest = answerByRows(columns, sourceRow, sensitive, m, wide.map((i) => queries[i]!), needAtLeast);
      wide.forEach((i, k) => {
        count[i] = rest.count[k]!;
        marginal[i] = rest.marginal[k]!;
      });
    }
    return { count, marginal };
  };
}

interface Candidate {
  readonly attributes: number[];
  readonly values: number[];
  readonly sensitiveValue: number;
}

/**
 * One candidate: d ∈ {1,2,3} distinct attributes drawn without replacement from `usable` (kept in
 * `remaining`, a work array of its length), uniform values, a uniform sensitive value. Written
 * without temporary arrays: a batch draws tens of thousands, and the draws are the same as picking
 * from a shrinking copy of `usable`.
 */
function drawCandidate(source: RandomSource, columns: readonly CountColumn[], usable: readonly number[], remaining: Int32Array, m: number): Candidate {
  const d = 1 + uniformInt(source, Math.min(3, usable.length));
  for (let i = 0; i < usable.length; i++) remaining[i] = usable[i]!;
  let left = usable.length;
  const attributes: number[] = [];
  for (let j = 0; j < d; j++) {
    const at = uniformInt(source, left);
    const attribute = remaining[at]!;
    remaining.copyWithin(at, at + 1, left--);
    // Insertion keeps the attributes ascending.
    let k = attributes.length;
    attributes.push(attribute);
    while (k > 0 && attributes[k - 1]! > attribute) {
      attributes[k] = attributes[k - 1]!;
      k--;
    }
    attributes[k] = attribute;
  }
  const values: number[] = [];
  for (let j = 0; j < d; j++) values.push(1 + uniformInt(source, columns[attributes[j]!]!.distinct));
  return { attributes, values, sensitiveValue: uniformInt(source, m) };
}

/**
 * Draws the paper's pool: d ∈ {1,2,3}, distinct attributes, uniform values, answer ≥ selectivity·|D|.
 * Candidates are drawn in order and kept in order while their answer is large enough, exactly as
 * one at a time would; they are only answered in batches, since a batch costs one scan of the rows.
 */
export function drawQueryPool(
  source: RandomSource,
  columns: readonly CountColumn[],
  sensitive: Uint32Array,
  m: number,
  options: QueryPoolOptions = PAPER_QUERY_POOL,
): QueryPool {
  const usable = columns.map((c, i) => (c.distinct > 0 ? i : -1)).filter((i) => i >= 0);
  const minAnswer = Math.max(1, Math.ceil(options.minSelectivity * sensitive.length));
  const queries: CountQuery[] = [];
  let attempts = 0;
  if (usable.length === 0) return { queries, requested: options.size, attempts, minAnswer };
  let drawn = 0;
  let accepted = 0;
  const counter = tupleCounter(columns, null, sensitive, m);
  const remaining = new Int32Array(usable.length);
  while (queries.length < options.size && drawn < options.maxAttempts) {
    // Enough candidates for the queries still missing at the acceptance rate seen so far (a quarter
    // before any is seen), with a margin: a second scan is rarely needed.
    const rate = drawn === 0 ? 0.25 : Math.max(accepted / drawn, 0.005);
    const batchSize = Math.min(options.maxAttempts - drawn, Math.ceil(((options.size - queries.length) / rate) * 1.25) + 64);
    const batch = Array.from({ length: batchSize }, () => drawCandidate(source, columns, usable, remaining, m));
    drawn += batch.length;
    const { count } = counter(batch, minAnswer);
    for (let i = 0; i < batch.length; i++) {
      if (count[i]! < minAnswer) continue;
      accepted++;
      if (queries.length < options.size) {
        queries.push({ ...batch[i]!, answer: count[i]! });
        attempts = drawn - batch.length + i + 1;
      }
    }
    if (queries.length < options.size) attempts = drawn;
  }
  return { queries, requested: options.size, attempts, minAnswer };
}

/** Mean relative error |est − ans|/ans of the pool answered from a randomized release. */
export function poolRelativeError(
  pool: QueryPool,
  columns: readonly CountColumn[],
  release: ReleaseRows,
  sensitiveIndex: number,
  p: number,
  m: number,
): number {
  if (pool.queries.length === 0) return Number.NaN;
  const { count, marginal } = answerQueries(columns, release.sourceRow, release.sensitive[sensitiveIndex]!, m, pool.queries);
  let total = 0;
  pool.queries.forEach((q, i) => {
    const est = estimateCount(count[i]!, marginal[i]!, p, m);
    total += Math.abs(est - q.answer) / q.answer;
  });
  return total / pool.queries.length;
}
