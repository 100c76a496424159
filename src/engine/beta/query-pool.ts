import { uniformInt } from '../random/draws.js';
import type { RandomSource } from '../random/source.js';
import type { Column } from '../table.js';
import type { Bucketization } from './bucketize.js';

/**
 * Anatomy's query pool (spec §C.15): COUNT(*) WHERE A_1 ∈ S_1 ∧ … ∧ SA ∈ V,
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

function countMatches(columns: readonly Column[], sensitive: Uint32Array, q: Omit<DisjunctiveQuery, 'answer'>, bucketOf?: Uint32Array, perBucket?: Uint32Array): number {
  const cols = q.attributes.map((a) => columns[a]!.codes);
  let answer = 0;
  const n = sensitive.length;
  rows: for (let r = 0; r < n; r++) {
    for (let j = 0; j < cols.length; j++) if (q.members[j]![cols[j]![r]!] === 0) continue rows;
    if (perBucket && bucketOf) perBucket[bucketOf[r]!]!++;
    if (q.sensitive[sensitive[r]!]) answer++;
  }
  return answer;
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
    const answer = countMatches(columns, sensitive, query);
    if (answer > 0) queries.push({ ...query, answer });
  }
  return { queries, requested: options.size, attempts };
}

/** Mean relative error of the pool answered from QIT and ST with Anatomy's estimator. */
export function bucketPoolRelativeError(pool: DisjunctivePool, columns: readonly Column[], sensitive: Uint32Array, b: Bucketization): number {
  if (pool.queries.length === 0) return Number.NaN;
  const perBucket = new Uint32Array(b.bucketCount);
  let total = 0;
  for (const q of pool.queries) {
    perBucket.fill(0);
    countMatches(columns, sensitive, q, b.bucketOfRow, perBucket);
    let estimate = 0;
    for (let bucket = 0; bucket < b.bucketCount; bucket++) {
      const matching = perBucket[bucket]!;
      if (matching === 0) continue;
      let listed = 0;
      let inV = 0;
      for (let e = b.stOffsets[bucket]!; e < b.stOffsets[bucket + 1]!; e++) {
        listed += b.stCount[e]!;
        if (q.sensitive[b.stValue[e]!]) inV += b.stCount[e]!;
      }
      estimate += (matching * inV) / listed;
    }
    total += Math.abs(estimate - q.answer) / q.answer;
  }
  return total / pool.queries.length;
}
