import { uniformInt } from '../../common/random/draws.js';
import type { RandomSource } from '../../common/random/source.js';
import { sortByCode } from '../../common/table/rows-by-code.js';
import type { Column } from '../../common/table/table.js';
import type { Bucketization } from './bucketize.js';

/**
 * Anatomy's query pool: COUNT(*) WHERE A_1 ∈ S_1 ∧ … ∧ SA ∈ V,
 * qd uniform in {1..#QI}, each disjunction of b = ⌈|A|·s^{1/(qd+1)}⌉ random
 * distinct values (expected selectivity s), redrawn while the answer is 0.
 */
export interface DisjunctiveQuery {
  readonly attributes: readonly number[];
  /** Per attribute, membership by dictionary code. */
  readonly members: readonly Uint8Array[];
  readonly sensitive: Uint8Array;
  readonly answer: number;
}

export interface DisjunctivePool {
  readonly queries: readonly DisjunctiveQuery[];
  readonly requested: number;
  readonly attempts: number;
}

function randomSubset(source: RandomSource, domainSize: number, size: number, offset: number, length: number): Uint8Array {
  const pool = Array.from({ length: domainSize }, (_, i) => i);
  const member = new Uint8Array(length);
  for (let j = 0; j < Math.min(size, domainSize); j++) {
    const pick = j + uniformInt(source, domainSize - j);
    [pool[j], pool[pick]] = [pool[pick]!, pool[j]!];
    member[pool[j]! + offset] = 1;
  }
  return member;
}

interface BucketTally {
  readonly bucketOf: Uint32Array;
  readonly perBucket: Uint32Array;
  readonly touched: number[];
}

/**
 * Rows grouped by code per attribute, so a query scans only the rows its most
 * selective predicate admits instead of the whole table.
 */
export class RowIndex {
  private readonly offsets: Uint32Array[] = [];
  private readonly rows: Uint32Array[] = [];
  constructor(private readonly columns: readonly Column[]) {
    for (const column of columns) {
      const { start, order } = sortByCode(column.codes, column.dictionary.length);
      this.offsets.push(start);
      this.rows.push(order);
    }
  }

  count(q: Omit<DisjunctiveQuery, 'answer'>, sensitive: Uint32Array, tally?: BucketTally): number {
    // Drive the scan from the predicate that admits the fewest rows.
    let driver = 0;
    let fewest = Infinity;
    q.attributes.forEach((a, j) => {
      const offsets = this.offsets[a]!;
      let admitted = 0;
      const member = q.members[j]!;
      for (let code = 0; code < member.length; code++) if (member[code]) admitted += offsets[code + 1]! - offsets[code]!;
      if (admitted < fewest) {
        fewest = admitted;
        driver = j;
      }
    });
    const others = q.attributes.map((a, j) => ({ codes: this.columns[a]!.codes, member: q.members[j]! })).filter((_, j) => j !== driver);
    const attribute = q.attributes[driver]!;
    const offsets = this.offsets[attribute]!;
    const rows = this.rows[attribute]!;
    const member = q.members[driver]!;
    let answer = 0;
    for (let code = 0; code < member.length; code++) {
      if (!member[code]) continue;
      scan: for (let k = offsets[code]!; k < offsets[code + 1]!; k++) {
        const r = rows[k]!;
        for (const o of others) if (o.member[o.codes[r]!] === 0) continue scan;
        if (tally) {
          const bucket = tally.bucketOf[r]!;
          if (tally.perBucket[bucket]!++ === 0) tally.touched.push(bucket);
        }
        if (q.sensitive[sensitive[r]!]) answer++;
      }
    }
    return answer;
  }
}

export function drawDisjunctivePool(
  source: RandomSource,
  columns: readonly Column[],
  sensitive: Uint32Array,
  m: number,
  options: { size: number; selectivity: number; maxAttempts: number },
): DisjunctivePool {
  const usable = columns.map((c, i) => (c.distinct > 0 ? i : -1)).filter((i) => i >= 0);
  const queries: DisjunctiveQuery[] = [];
  const index = new RowIndex(columns);
  let attempts = 0;
  while (usable.length > 0 && queries.length < options.size && attempts < options.maxAttempts) {
    attempts++;
    const qd = 1 + uniformInt(source, usable.length);
    const pool = [...usable];
    const attributes: number[] = [];
    for (let j = 0; j < qd; j++) attributes.push(pool.splice(uniformInt(source, pool.length), 1)[0]!);
    const share = options.selectivity ** (1 / (qd + 1));
    const members = attributes.map((a) => {
      const c = columns[a]!;
      return randomSubset(source, c.distinct, Math.ceil(c.distinct * share), 1, c.dictionary.length);
    });
    const sensitiveMembers = randomSubset(source, m, Math.ceil(m * share), 0, m);
    const query = { attributes, members, sensitive: sensitiveMembers };
    const answer = index.count(query, sensitive);
    if (answer > 0) queries.push({ ...query, answer });
  }
  return { queries, requested: options.size, attempts };
}

/** Mean relative error of the pool answered from QIT and ST with Anatomy's estimator. */
export function bucketPoolRelativeError(pool: DisjunctivePool, columns: readonly Column[], sensitive: Uint32Array, b: Bucketization): number {
  if (pool.queries.length === 0) return Number.NaN;
  const index = new RowIndex(columns);
  const tally: BucketTally = { bucketOf: b.bucketOfRow, perBucket: new Uint32Array(b.bucketCount), touched: [] };
  const listed = new Float64Array(b.bucketCount);
  for (let bucket = 0; bucket < b.bucketCount; bucket++) {
    for (let e = b.stOffsets[bucket]!; e < b.stOffsets[bucket + 1]!; e++) listed[bucket]! += b.stCount[e]!;
  }
  let total = 0;
  for (const q of pool.queries) {
    tally.touched.length = 0;
    index.count(q, sensitive, tally);
    let estimate = 0;
    for (const bucket of tally.touched) {
      let inV = 0;
      for (let e = b.stOffsets[bucket]!; e < b.stOffsets[bucket + 1]!; e++) if (q.sensitive[b.stValue[e]!]) inV += b.stCount[e]!;
      estimate += (tally.perBucket[bucket]! * inV) / listed[bucket]!;
      tally.perBucket[bucket] = 0;
    }
    total += Math.abs(estimate - q.answer) / q.answer;
  }
  return total / pool.queries.length;
}
