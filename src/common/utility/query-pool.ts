import { uniformInt } from '../random/draws.js';
import type { RandomSource } from '../random/source.js';
import { estimateCount } from '../randomized-response/perturbation/estimate.js';
import type { ReleaseRows } from '../table/release-rows.js';
import type { Column } from '../table/table.js';

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

const DENSE_LIMIT = 1 << 23;

/** Counts of (attribute values…, sensitive value) over a set of rows, keyed by mixed radix. */
class CountTable {
  private readonly dense: Uint32Array | undefined;
  private readonly sparse: Map<number, number> | undefined;
  constructor(
    private readonly radices: readonly number[],
    private readonly m: number,
  ) {
    const cells = radices.reduce((a, b) => a * b, m);
    if (cells <= DENSE_LIMIT) this.dense = new Uint32Array(cells);
    else this.sparse = new Map();
  }
  key(values: readonly number[], x: number): number {
    let k = 0;
    for (let j = 0; j < values.length; j++) k = k * this.radices[j]! + values[j]!;
    return k * this.m + x;
  }
  add(key: number): void {
    const dense = this.dense;
    if (dense) dense[key]!++;
    else this.sparse!.set(key, (this.sparse!.get(key) ?? 0) + 1);
  }
  get(key: number): number {
    return this.dense ? this.dense[key]! : (this.sparse!.get(key) ?? 0);
  }
  /** Count of rows matching the attribute values whatever their sensitive value. */
  marginal(values: readonly number[]): number {
    const base = this.key(values, 0);
    let total = 0;
    for (let x = 0; x < this.m; x++) total += this.get(base + x);
    return total;
  }
}

/** Builds count tables over a table (rows given by reference) lazily, one per attribute set. */
export class CountCube {
  private readonly tables = new Map<string, CountTable>();
  constructor(
    private readonly columns: readonly Column[],
    private readonly sourceRow: Uint32Array | null,
    private readonly sensitive: Uint32Array,
    private readonly m: number,
  ) {}

  private readonly gathered = new Map<number, Uint32Array>();

  /** A column's codes in release order: gathered once so every table scans sequentially. */
  private codesOf(attribute: number): Uint32Array {
    const codes = this.columns[attribute]!.codes;
    const ref = this.sourceRow;
    if (!ref) return codes;
    let out = this.gathered.get(attribute);
    if (!out) {
      out = new Uint32Array(ref.length);
      for (let r = 0; r < ref.length; r++) out[r] = codes[ref[r]!]!;
      this.gathered.set(attribute, out);
    }
    return out;
  }

  table(attributes: readonly number[]): CountTable {
    const id = attributes.join(',');
    let table = this.tables.get(id);
    if (table) return table;
    const cols = attributes.map((a) => this.codesOf(a));
    const radices = attributes.map((a) => this.columns[a]!.dictionary.length);
    table = new CountTable(radices, this.m);
    const n = this.sensitive.length;
    const sa = this.sensitive;
    const m = this.m;
    const [c0, c1, c2] = cols;
    if (cols.length === 1) for (let r = 0; r < n; r++) table.add(c0![r]! * m + sa[r]!);
    else if (cols.length === 2) {
      const r1 = radices[1]!;
      for (let r = 0; r < n; r++) table.add((c0![r]! * r1 + c1![r]!) * m + sa[r]!);
    } else {
      const r1 = radices[1]!;
      const r2 = radices[2]!;
      for (let r = 0; r < n; r++) table.add(((c0![r]! * r1 + c1![r]!) * r2 + c2![r]!) * m + sa[r]!);
    }
    this.tables.set(id, table);
    return table;
  }

  count(q: Pick<CountQuery, 'attributes' | 'values' | 'sensitiveValue'>): number {
    const t = this.table(q.attributes);
    return t.get(t.key(q.values, q.sensitiveValue));
  }

  marginal(q: Pick<CountQuery, 'attributes' | 'values'>): number {
    return this.table(q.attributes).marginal(q.values);
  }
}

/** Draws the paper's pool: d ∈ {1,2,3}, distinct attributes, uniform values, answer ≥ selectivity·|D|. */
export function drawQueryPool(
  source: RandomSource,
  columns: readonly Column[],
  sensitive: Uint32Array,
  m: number,
  options: QueryPoolOptions = PAPER_QUERY_POOL,
): QueryPool {
  const usable = columns.map((c, i) => (c.distinct > 0 ? i : -1)).filter((i) => i >= 0);
  const cube = new CountCube(columns, null, sensitive, m);
  const minAnswer = Math.max(1, Math.ceil(options.minSelectivity * sensitive.length));
  const queries: CountQuery[] = [];
  let attempts = 0;
  if (usable.length === 0) return { queries, requested: options.size, attempts, minAnswer };
  while (queries.length < options.size && attempts < options.maxAttempts) {
    attempts++;
    const d = 1 + uniformInt(source, Math.min(3, usable.length));
    const pool = [...usable];
    const attributes: number[] = [];
    for (let j = 0; j < d; j++) attributes.push(pool.splice(uniformInt(source, pool.length), 1)[0]!);
    attributes.sort((a, b) => a - b);
    const values = attributes.map((a) => 1 + uniformInt(source, columns[a]!.distinct));
    const sensitiveValue = uniformInt(source, m);
    const answer = cube.count({ attributes, values, sensitiveValue });
    if (answer >= minAnswer) queries.push({ attributes, values, sensitiveValue, answer });
  }
  return { queries, requested: options.size, attempts, minAnswer };
}

/** Mean relative error |est − ans|/ans of the pool answered from a randomized release. */
export function poolRelativeError(
  pool: QueryPool,
  columns: readonly Column[],
  release: ReleaseRows,
  sensitiveIndex: number,
  p: number,
  m: number,
): number {
  if (pool.queries.length === 0) return Number.NaN;
  const cube = new CountCube(columns, release.sourceRow, release.sensitive[sensitiveIndex]!, m);
  let total = 0;
  for (const q of pool.queries) {
    const published = cube.marginal(q);
    const observed = cube.count(q);
    const est = estimateCount(observed, published, p, m);
    total += Math.abs(est - q.answer) / q.answer;
  }
  return total / pool.queries.length;
}
