import { uniformInt } from '../random/draws.js';
import type { RandomSource } from '../random/source.js';
import { csr, type Bucketization } from './bucketize.js';

export class FakeValueError extends Error {}

/**
 * Adds k fake values to every bucket's sensitive-table entry (spec §C.16):
 * distinct, drawn uniformly from the domain values absent from the bucket and
 * not excluded for it, each listed with count 1. The QI table is unchanged.
 */
export function addFakeValues(
  source: RandomSource,
  b: Bucketization,
  m: number,
  k: number,
  excluded?: (bucket: number) => ReadonlySet<number>,
): Bucketization {
  if (k === 0) return b;
  const entries: { bucket: number; value: number; count: number; fake: boolean }[] = [];
  const present = new Uint8Array(m);
  for (let bucket = 0; bucket < b.bucketCount; bucket++) {
    const start = b.stOffsets[bucket]!;
    const end = b.stOffsets[bucket + 1]!;
    present.fill(0);
    for (let e = start; e < end; e++) {
      present[b.stValue[e]!] = 1;
      entries.push({ bucket, value: b.stValue[e]!, count: b.stCount[e]!, fake: false });
    }
    const banned = excluded?.(bucket);
    const candidates: number[] = [];
    for (let v = 0; v < m; v++) if (!present[v] && !banned?.has(v)) candidates.push(v);
    if (candidates.length < k) {
      throw new FakeValueError(
        `a bucket of ${b.bucketSize[bucket]} rows with ${end - start} distinct values leaves only ${candidates.length} candidate fake values; ` +
          `${k} were asked (the domain has ${m} values)`,
      );
    }
    for (let j = 0; j < k; j++) {
      const pick = j + uniformInt(source, candidates.length - j);
      [candidates[j], candidates[pick]] = [candidates[pick]!, candidates[j]!];
      entries.push({ bucket, value: candidates[j]!, count: 1, fake: true });
    }
  }
  entries.sort((x, y) => x.bucket - y.bucket || x.value - y.value);
  return csr(b.bucketCount, b.bucketOfRow, b.bucketSize, entries);
}
