import { sortByCode } from '../../common/table/rows-by-code.js';
import { randomPermutation, shuffleInPlace } from '../../common/random/draws.js';
import type { RandomSource } from '../../common/random/source.js';
import { roundRobinInto } from './partition.js';

/**
 * A published bucketization: every input row gets a bucket id, and
 * the sensitive table lists per bucket the count of each value. Bucket ids are
 * a random permutation, and rows of one value are shuffled before they are
 * dealt to buckets, so neither ids nor assignment follow the input order.
 */
export interface Bucketization {
  readonly bucketCount: number;
  /** Bucket id (0-based; published 1-based) of every input row. */
  readonly bucketOfRow: Uint32Array;
  readonly bucketSize: Uint32Array;
  /** Sensitive table in CSR form: bucket b owns entries [stOffsets[b], stOffsets[b+1]). */
  readonly stOffsets: Uint32Array;
  readonly stValue: Uint32Array;
  readonly stCount: Uint32Array;
  /** Entries that are fake values (count 1) added against the corruption attack. */
  readonly stFake: Uint8Array;
}

/** Value counts of every bucket as a flat bucket × value matrix. */
export interface BucketMatrix {
  readonly bucketCount: number;
  readonly m: number;
  readonly counts: Int32Array;
}

/** Per-bucket value counts from size classes via round-robin assignment. */
export function bucketsFromClasses(classes: readonly { size: number; count: number; valueCounts: readonly number[] }[]): BucketMatrix {
  const m = classes[0]?.valueCounts.length ?? 0;
  const bucketCount = classes.reduce((sum, c) => sum + c.count, 0);
  const counts = new Int32Array(bucketCount * m);
  let first = 0;
  for (const c of classes) {
    roundRobinInto(counts, first, c.valueCounts, c.count);
    first += c.count;
  }
  return { bucketCount, m, counts };
}

export function matrixFromBuckets(buckets: readonly Int32Array[], m: number): BucketMatrix {
  const counts = new Int32Array(buckets.length * m);
  buckets.forEach((b, k) => counts.set(b, k * m));
  return { bucketCount: buckets.length, m, counts };
}

export function materializeBuckets(source: RandomSource, values: Uint32Array, m: number, matrix: BucketMatrix): Bucketization {
  const n = values.length;
  // Rows grouped by value (counting sort), each group shuffled so dealing them out follows no input order.
  const { start, order: byValue } = sortByCode(values, m);
  for (let v = 0; v < m; v++) shuffleInPlace(source, byValue.subarray(start[v]!, start[v + 1]!));
  const { bucketCount, counts } = matrix;
  const ids = randomPermutation(source, bucketCount);
  const bucketOfRow = new Uint32Array(n);
  const bucketSize = new Uint32Array(bucketCount);
  const stOffsets = new Uint32Array(bucketCount + 1);
  for (let b = 0; b < bucketCount; b++) {
    let entries = 0;
    for (let v = 0; v < m; v++) if (counts[b * m + v]! > 0) entries++;
    stOffsets[ids[b]! + 1] = entries;
  }
  for (let id = 0; id < bucketCount; id++) stOffsets[id + 1]! += stOffsets[id]!;
  const stValue = new Uint32Array(stOffsets[bucketCount]!);
  const stCount = new Uint32Array(stValue.length);
  const next = start.slice(0, m);
  for (let b = 0; b < bucketCount; b++) {
    const id = ids[b]!;
    let e = stOffsets[id]!;
    for (let v = 0; v < m; v++) {
      const c = counts[b * m + v]!;
      if (c === 0) continue;
      for (let j = 0; j < c; j++) bucketOfRow[byValue[next[v]!++]!] = id;
      bucketSize[id]! += c;
      stValue[e] = v;
      stCount[e++] = c;
    }
  }
  for (let v = 0; v < m; v++) if (next[v] !== start[v + 1]) throw new Error('bucket counts do not cover every row');
  return { bucketCount, bucketOfRow, bucketSize, stOffsets, stValue, stCount, stFake: new Uint8Array(stValue.length) };
}

/** Largest count/size over all buckets for each value: the adversary's inference bound. */
export function maxInference(b: Bucketization, m: number): { count: number; size: number }[] {
  const worst = Array.from({ length: m }, () => ({ count: 0, size: 1 }));
  for (let bucket = 0; bucket < b.bucketCount; bucket++) {
    const size = b.bucketSize[bucket]!;
    for (let k = b.stOffsets[bucket]!; k < b.stOffsets[bucket + 1]!; k++) {
      if (b.stFake[k]) continue;
      const w = worst[b.stValue[k]!]!;
      if (b.stCount[k]! * w.size > w.count * size) {
        w.count = b.stCount[k]!;
        w.size = size;
      }
    }
  }
  return worst;
}
