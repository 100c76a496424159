import { randomPermutation, shuffleInPlace } from '../random/draws.js';
import type { RandomSource } from '../random/source.js';
import { roundRobin } from './partition.js';

/**
 * A published bucketization (spec §C.1): every input row gets a bucket id, and
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

/** Per-bucket value counts, bucket by bucket, from size classes via round-robin assignment. */
export function bucketsFromClasses(classes: readonly { size: number; count: number; valueCounts: readonly number[] }[]): Int32Array[] {
  return classes.flatMap((c) => roundRobin(c.valueCounts, c.count));
}

export function materializeBuckets(source: RandomSource, values: Uint32Array, m: number, buckets: readonly Int32Array[]): Bucketization {
  const rowsOfValue: number[][] = Array.from({ length: m }, () => []);
  for (let r = 0; r < values.length; r++) rowsOfValue[values[r]!]!.push(r);
  for (const rows of rowsOfValue) shuffleInPlace(source, rows);
  const ids = randomPermutation(source, buckets.length);
  const bucketOfRow = new Uint32Array(values.length);
  const bucketSize = new Uint32Array(buckets.length);
  const next = new Int32Array(m);
  const entries: { bucket: number; value: number; count: number }[] = [];
  buckets.forEach((counts, b) => {
    const id = ids[b]!;
    for (let v = 0; v < m; v++) {
      const c = counts[v]!;
      if (c === 0) continue;
      const rows = rowsOfValue[v]!;
      for (let j = 0; j < c; j++) bucketOfRow[rows[next[v]!++]!] = id;
      bucketSize[id]! += c;
      entries.push({ bucket: id, value: v, count: c });
    }
  });
  for (let v = 0; v < m; v++) if (next[v] !== rowsOfValue[v]!.length) throw new Error('bucket counts do not cover every row');
  entries.sort((a, b) => a.bucket - b.bucket || a.value - b.value);
  return csr(buckets.length, bucketOfRow, bucketSize, entries.map((e) => ({ ...e, fake: false })));
}

export function csr(
  bucketCount: number,
  bucketOfRow: Uint32Array,
  bucketSize: Uint32Array,
  entries: readonly { bucket: number; value: number; count: number; fake: boolean }[],
): Bucketization {
  const stOffsets = new Uint32Array(bucketCount + 1);
  for (const e of entries) stOffsets[e.bucket + 1]!++;
  for (let b = 0; b < bucketCount; b++) stOffsets[b + 1]! += stOffsets[b]!;
  const stValue = new Uint32Array(entries.length);
  const stCount = new Uint32Array(entries.length);
  const stFake = new Uint8Array(entries.length);
  entries.forEach((e, k) => {
    stValue[k] = e.value;
    stCount[k] = e.count;
    stFake[k] = e.fake ? 1 : 0;
  });
  return { bucketCount, bucketOfRow, bucketSize, stOffsets, stValue, stCount, stFake };
}

/** Largest count/size over all buckets for each value: the adversary's inference bound (§C.1). */
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
