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

/** Rows scanned by every attribute set before moving on: their codes stay in the processor's cache. */
const BLOCK_ROWS = 16384;

/** A query's cells: its count with the sensitive value, and its count whatever the sensitive value. */
export interface QueryCounts {
  readonly count: Uint32Array;
  readonly marginal: Uint32Array;
}

type Codes = Uint16Array | Uint32Array;

/**
 * The combinations of values one attribute set's queries ask about, as an open-addressing hash
 * table over typed arrays: a lookup per candidate row without allocating.
 */
class SlotTable {
  private readonly keys: Float64Array;
  private readonly slots: Int32Array;
  private readonly shift: number;
  size = 0;
  constructor(capacity: number) {
    const bits = Math.max(4, Math.ceil(Math.log2(capacity * 4)));
    this.keys = new Float64Array(1 << bits);
    this.slots = new Int32Array(1 << bits).fill(-1);
    this.shift = 32 - bits;
  }
  private home(key: number): number {
    return Math.imul((key % 2147483647) | 0, -1640531535) >>> this.shift;
  }
  /** The key's slot, added when new. */
  add(key: number): number {
    const mask = this.slots.length - 1;
    for (let h = this.home(key); ; h = (h + 1) & mask) {
      if (this.slots[h] === -1) {
        this.keys[h] = key;
        this.slots[h] = this.size;
        return this.size++;
      }
      if (this.keys[h] === key) return this.slots[h]!;
    }
  }
  get(key: number): number {
    const mask = this.slots.length - 1;
    for (let h = this.home(key); ; h = (h + 1) & mask) {
      const slot = this.slots[h]!;
      if (slot === -1 || this.keys[h] === key) return slot;
    }
  }
}

/** The queries that share one set of attributes, answered together by one pass over the rows. */
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

/**
 * Answers many count queries over a table whose rows are given by reference.
 * The rows are scanned in blocks; each block by every attribute set (query
 * "shape") in turn while its codes are in cache. A row is counted only when each
 * of its values is one the shape's queries ask about (a byte per value, checked
 * most selective first) and its combination is one of theirs (a hash lookup), so
 * no table of every combination is built or touched.
 */
export function answerQueries(
  columns: readonly Column[],
  sourceRow: Uint32Array | null,
  sensitive: Uint32Array,
  m: number,
  queries: readonly Pick<CountQuery, 'attributes' | 'values' | 'sensitiveValue'>[],
): QueryCounts {
  const count = new Uint32Array(queries.length);
  const marginal = new Uint32Array(queries.length);
  const n = sensitive.length;
  const shapes = shapesOf(queries);
  const used = [...new Set(shapes.flatMap((s) => s.attributes))];
  // One array type for every column, so the scanning loops see one kind of array and stay fast.
  const wide = used.some((a) => columns[a]!.dictionary.length > 65536);
  const codes = new Map<number, Codes>();
  const frequency = new Map<number, Float64Array>();
  for (const a of used) {
    const original = columns[a]!.codes;
    const out = wide ? new Uint32Array(n) : new Uint16Array(n);
    const freq = new Float64Array(columns[a]!.dictionary.length);
    for (let r = 0; r < n; r++) {
      const code = original[sourceRow ? sourceRow[r]! : r]!;
      out[r] = code;
      freq[code]!++;
    }
    codes.set(a, out);
    frequency.set(a, freq);
  }
  const scans = shapes.map((shape) => {
    const d = shape.attributes.length;
    const radices = shape.attributes.map((a) => columns[a]!.dictionary.length);
    const table = new SlotTable(shape.members.length);
    const slotOfQuery = shape.members.map((i) => table.add(queries[i]!.values.reduce((k, v, j) => k * radices[j]! + v, 0)));
    // Per attribute, which of its values some query asks about; checked in order of how few rows pass.
    const asked = shape.attributes.map((a, j) => {
      const mask = new Uint8Array(radices[j]!);
      for (const i of shape.members) mask[queries[i]!.values[j]!] = 1;
      let passing = 0;
      mask.forEach((on, code) => (passing += on ? frequency.get(a)![code]! : 0));
      return { j, mask, passing };
    });
    const order = [...asked].sort((x, y) => x.passing - y.passing).map((x) => x.j);
    const first = asked[order[0]!]!.mask;
    const firstCodes = codes.get(shape.attributes[order[0]!]!)!;
    const second = d > 1 ? asked[order[1]!]!.mask : first;
    const secondCodes = d > 1 ? codes.get(shape.attributes[order[1]!]!)! : firstCodes;
    const cols = shape.attributes.map((a) => codes.get(a)!);
    const c0 = cols[0]!;
    const c1 = cols[1] ?? c0;
    const c2 = cols[2] ?? c0;
    const r1 = radices[1] ?? 1;
    const r2 = radices[2] ?? 1;
    const counts = new Uint32Array(table.size * m);
    const scan = (start: number, end: number): void => {
      for (let r = start; r < end; r++) {
        if (first[firstCodes[r]!] === 0 || second[secondCodes[r]!] === 0) continue;
        const key = d === 1 ? c0[r]! : d === 2 ? c0[r]! * r1 + c1[r]! : (c0[r]! * r1 + c1[r]!) * r2 + c2[r]!;
        const slot = table.get(key);
        if (slot >= 0) counts[slot * m + sensitive[r]!]!++;
      }
    };
    const finish = (): void => {
      shape.members.forEach((i, k) => {
        const base = slotOfQuery[k]! * m;
        count[i] = counts[base + queries[i]!.sensitiveValue]!;
        let total = 0;
        for (let x = 0; x < m; x++) total += counts[base + x]!;
        marginal[i] = total;
      });
    };
    return { scan, finish };
  });
  for (let start = 0; start < n; start += BLOCK_ROWS) {
    const end = Math.min(n, start + BLOCK_ROWS);
    for (const s of scans) s.scan(start, end);
  }
  for (const s of scans) s.finish();
  return { count, marginal };
}

interface Candidate {
  readonly attributes: number[];
  readonly values: number[];
  readonly sensitiveValue: number;
}

function drawCandidate(source: RandomSource, columns: readonly Column[], usable: readonly number[], m: number): Candidate {
  const d = 1 + uniformInt(source, Math.min(3, usable.length));
  const pool = [...usable];
  const attributes: number[] = [];
  for (let j = 0; j < d; j++) attributes.push(pool.splice(uniformInt(source, pool.length), 1)[0]!);
  attributes.sort((a, b) => a - b);
  const values = attributes.map((a) => 1 + uniformInt(source, columns[a]!.distinct));
  return { attributes, values, sensitiveValue: uniformInt(source, m) };
}

/**
 * Draws the paper's pool: d ∈ {1,2,3}, distinct attributes, uniform values, answer ≥ selectivity·|D|.
 * Candidates are drawn in order and kept in order while their answer is large enough, exactly as
 * one at a time would; they are only answered in batches, since a batch costs one scan of the rows.
 */
export function drawQueryPool(
  source: RandomSource,
  columns: readonly Column[],
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
  while (queries.length < options.size && drawn < options.maxAttempts) {
    // Enough candidates for the queries still missing at the acceptance rate seen so far (a quarter
    // before any is seen), with a margin: a second scan is rarely needed.
    const rate = drawn === 0 ? 0.25 : Math.max(accepted / drawn, 0.005);
    const batchSize = Math.min(options.maxAttempts - drawn, Math.ceil(((options.size - queries.length) / rate) * 1.25) + 64);
    const batch = Array.from({ length: batchSize }, () => drawCandidate(source, columns, usable, m));
    drawn += batch.length;
    const { count } = answerQueries(columns, null, sensitive, m, batch);
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
  columns: readonly Column[],
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
