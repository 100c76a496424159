import type { RandomSource } from '../random/source.js';
import { sortByCode } from '../table/rows-by-code.js';
import { drawQueryPool, type CountColumn, type QueryPoolOptions } from '../utility/query-pool.js';
import type { ReleasedColumn, ReleasedRecords } from './released-records.js';

/** COUNT(*) WHERE A_1=a_1 ∧ … ∧ A_d=a_d over the pool's columns, with its answer on the input. */
export interface PoolQuery {
  /** Indices into the pool's columns, ascending. */
  readonly attributes: readonly number[];
  /** Codes of the input, one per attribute. */
  readonly values: readonly number[];
  readonly answer: number;
}

export interface CommonPool {
  readonly queries: readonly PoolQuery[];
  readonly requested: number;
  readonly attempts: number;
  readonly minAnswer: number;
}

/** The paper's sizes (Wang, Han, Fu §6): 5,000 queries, each answer at least 0.1% of the records. */
export const COMMON_POOL: QueryPoolOptions = { size: 5000, minSelectivity: 0.001, maxAttempts: 2_000_000 };

/**
 * One pool for every candidate: d ∈ {1,2,3} distinct columns, each value drawn
 * uniformly among the column's values, kept when the input answers at least
 * 0.1% of its records. It is the pool of the randomized-response report with no
 * sensitive predicate of its own (every column may be asked, the sensitive ones
 * included), drawn by the same code with a one-valued stand-in for the sensitive value.
 */
export function drawCommonPool(source: RandomSource, columns: readonly CountColumn[], rows: number, options: QueryPoolOptions = COMMON_POOL): CommonPool {
  const pool = drawQueryPool(source, columns, new Uint32Array(rows), 1, options);
  return {
    queries: pool.queries.map((q) => ({ attributes: q.attributes, values: q.values, answer: q.answer })),
    requested: pool.requested,
    attempts: pool.attempts,
    minAnswer: pool.minAnswer,
  };
}

/** Joint counts of a shape's released codes are kept whole below this many cells (or 4 per record). */
const DENSE_CELLS = 1 << 16;

interface Reduced {
  readonly index: number;
  readonly factor: number;
  /** The attributes that weigh records differently, and their weights. */
  readonly attributes: readonly number[];
  readonly weights: readonly Float64Array[];
  readonly values: readonly number[];
}

/**
 * Per query, the estimate from the released records: scale · Σ_records Π_attributes weight.
 * Queries are taken by shape (their set of attributes): when the shape's joint table of
 * released codes is small, it is counted in one pass over the records and each query sums
 * over the few cells its weights reach (denseCells: for tests of the other way); otherwise each query reads the records of its most
 * selective attribute (a posting list), or all of them.
 */
export function estimatePool(pool: CommonPool, released: ReleasedRecords, denseCells = Math.max(DENSE_CELLS, 4 * released.records)): Float64Array {
  const estimates = new Float64Array(pool.queries.length);
  // Queries repeat values (a sensitive value is asked about hundreds of times): each column's weights for a value are made once.
  const weightCache = new Map<number, Map<number, Float64Array>>();
  const weightsOf = (a: number, x: number): Float64Array => {
    let byValue = weightCache.get(a);
    if (!byValue) weightCache.set(a, (byValue = new Map()));
    let w = byValue.get(x);
    if (!w) byValue.set(x, (w = released.columns[a]!.weights(x)));
    return w;
  };
  const reachCache = new Map<string, readonly number[]>();
  const reachOf = (a: number, x: number): readonly number[] => {
    const key = `${a}:${x}`;
    let reach = reachCache.get(key);
    if (!reach) reachCache.set(key, (reach = released.columns[a]!.support(x) ?? nonZero(weightsOf(a, x))));
    return reach;
  };
  const byShape = new Map<string, Reduced[]>();
  pool.queries.forEach((q, index) => {
    // A column with one released code (withheld) weighs every record alike: it factors out of the sum.
    let factor = released.scale;
    const attributes: number[] = [];
    const weights: Float64Array[] = [];
    const values: number[] = [];
    q.attributes.forEach((a, j) => {
      const w = weightsOf(a, q.values[j]!);
      if (released.columns[a]!.codeCount === 1) factor *= w[0]!;
      else {
        attributes.push(a);
        weights.push(w);
        values.push(q.values[j]!);
      }
    });
    const key = attributes.join(',');
    let list = byShape.get(key);
    if (!list) byShape.set(key, (list = []));
    list.push({ index, factor, attributes, weights, values });
  });
  const postings = new Map<number, { readonly order: Uint32Array; readonly start: Uint32Array }>();
  const postingsOf = (a: number) => {
    let p = postings.get(a);
    if (!p) postings.set(a, (p = sortByCode(released.columns[a]!.codes, released.columns[a]!.codeCount)));
    return p;
  };
  for (const queries of byShape.values()) {
    const attributes = queries[0]!.attributes;
    const columns = attributes.map((a) => released.columns[a]!);
    const cells = columns.reduce((product, c) => product * c.codeCount, 1);
    if (cells <= denseCells) {
      const counts = jointCounts(columns, released.records, cells);
      for (const q of queries) estimates[q.index] = q.factor * sumCells(counts, columns, q, attributes.map((a, j) => reachOf(a, q.values[j]!)));
      continue;
    }
    for (const q of queries) {
      // Drive the sum from the attribute whose non-zero codes hold the fewest records; the others multiply in.
      let driver = -1;
      let fewest = Infinity;
      let driverCodes: readonly number[] = [];
      columns.forEach((c, j) => {
        const support = c.support(q.values[j]!);
        if (support === null) return;
        const p = postingsOf(attributes[j]!);
        let rows = 0;
        for (const code of support) rows += p.start[code + 1]! - p.start[code]!;
        if (rows < fewest) {
          fewest = rows;
          driver = j;
          driverCodes = support;
        }
      });
      estimates[q.index] = q.factor * (driver < 0 ? sumAll(columns, q.weights, released.records) : sumListed(columns, q.weights, driver, driverCodes, postingsOf(attributes[driver]!)));
    }
  }
  return estimates;
}

/** How many records hold each combination of released codes (row-major over the columns). */
function jointCounts(columns: readonly ReleasedColumn[], records: number, cells: number): Float64Array {
  const counts = new Float64Array(cells);
  // One plain loop per width: V8 compiles each once, with no inner loop over the columns.
  if (columns.length === 2) count2(counts, columns[0]!.codes, columns[1]!.codes, columns[1]!.codeCount, records);
  else if (columns.length === 3) count3(counts, columns[0]!.codes, columns[1]!.codes, columns[2]!.codes, columns[1]!.codeCount, columns[2]!.codeCount, records);
  else {
    const codes = columns.map((c) => c.codes);
    const radices = columns.map((c) => c.codeCount);
    for (let r = 0; r < records; r++) {
      let cell = 0;
      for (let j = 0; j < codes.length; j++) cell = cell * radices[j]! + codes[j]![r]!;
      counts[cell]!++;
    }
  }
  return counts;
}

function count2(counts: Float64Array, c0: Uint32Array, c1: Uint32Array, r1: number, records: number): void {
  for (let r = 0; r < records; r++) counts[c0[r]! * r1 + c1[r]!]!++;
}

function count3(counts: Float64Array, c0: Uint32Array, c1: Uint32Array, c2: Uint32Array, r1: number, r2: number, records: number): void {
  for (let r = 0; r < records; r++) counts[(c0[r]! * r1 + c1[r]!) * r2 + c2[r]!]!++;
}

/** Σ over the cells the query's weights reach of count · Π weight. */
function sumCells(counts: Float64Array, columns: readonly ReleasedColumn[], q: Reduced, reach: readonly (readonly number[])[]): number {
  const walk = (j: number, cell: number, w: number): number => {
    if (j === columns.length) return counts[cell]! * w;
    let total = 0;
    for (const code of reach[j]!) {
      const wj = q.weights[j]![code]!;
      if (wj !== 0) total += walk(j + 1, cell * columns[j]!.codeCount + code, w * wj);
    }
    return total;
  };
  return walk(0, 0, 1);
}

function nonZero(weights: Float64Array): number[] {
  const out: number[] = [];
  for (let c = 0; c < weights.length; c++) if (weights[c] !== 0) out.push(c);
  return out;
}

function sumAll(columns: readonly ReleasedColumn[], weights: readonly Float64Array[], records: number): number {
  let total = 0;
  for (let r = 0; r < records; r++) {
    let w = 1;
    for (let j = 0; j < columns.length; j++) w *= weights[j]![columns[j]!.codes[r]!]!;
    total += w;
  }
  return total;
}

function sumListed(columns: readonly ReleasedColumn[], weights: readonly Float64Array[], driver: number, codes: readonly number[], postings: { readonly order: Uint32Array; readonly start: Uint32Array }): number {
  let total = 0;
  for (const code of codes) {
    const base = weights[driver]![code]!;
    if (base === 0) continue;
    for (let at = postings.start[code]!; at < postings.start[code + 1]!; at++) {
      const r = postings.order[at]!;
      let w = base;
      for (let j = 0; j < columns.length; j++) if (j !== driver) w *= weights[j]![columns[j]!.codes[r]!]!;
      total += w;
    }
  }
  return total;
}

/** Mean relative error |estimate − answer| / answer over the pool; NaN for an empty pool. */
export function meanRelativeError(pool: CommonPool, estimates: Float64Array): number {
  if (pool.queries.length === 0) return Number.NaN;
  let total = 0;
  pool.queries.forEach((q, i) => (total += Math.abs(estimates[i]! - q.answer) / q.answer));
  return total / pool.queries.length;
}
