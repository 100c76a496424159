import { uniformInt } from '../../common/random/draws.js';
import type { RandomSource } from '../../common/random/source.js';
import type { Bucketization } from './bucketize.js';

export class FakeValueError extends Error {}

/**
 * Adds k fake values to every bucket's sensitive-table entry:
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
  const total = b.stValue.length + k * b.bucketCount;
  const stOffsets = new Uint32Array(b.bucketCount + 1);
  const stValue = new Uint32Array(total);
  const stCount = new Uint32Array(total);
  const stFake = new Uint8Array(total);
  const present = new Uint8Array(m);
  const candidates: number[] = [];
  const merged: { value: number; count: number; fake: boolean }[] = [];
  let out = 0;
  for (let bucket = 0; bucket < b.bucketCount; bucket++) {
    const start = b.stOffsets[bucket]!;
    const end = b.stOffsets[bucket + 1]!;
    merged.length = 0;
    for (let e = start; e < end; e++) {
      present[b.stValue[e]!] = 1;
      merged.push({ value: b.stValue[e]!, count: b.stCount[e]!, fake: false });
    }
    const banned = excluded?.(bucket);
    candidates.length = 0;
    for (let v = 0; v < m; v++) if (!present[v] && !banned?.has(v)) candidates.push(v);
    for (let e = start; e < end; e++) present[b.stValue[e]!] = 0;
    if (candidates.length < k) {
      throw new FakeValueError(
        `a bucket of ${b.bucketSize[bucket]} rows with ${end - start} distinct values leaves only ${candidates.length} candidate fake values; ` +
          `${k} were asked (the domain has ${m} values)`,
      );
    }
    for (let j = 0; j < k; j++) {
      const pick = j + uniformInt(source, candidates.length - j);
      [candidates[j], candidates[pick]] = [candidates[pick]!, candidates[j]!];
      merged.push({ value: candidates[j]!, count: 1, fake: true });
    }
    // Listed in value order, so a fake's position gives nothing away.
    merged.sort((x, y) => x.value - y.value);
    for (const entry of merged) {
      stValue[out] = entry.value;
      stCount[out] = entry.count;
      stFake[out++] = entry.fake ? 1 : 0;
    }
    stOffsets[bucket + 1] = out;
  }
  return { ...b, stOffsets, stValue, stCount, stFake };
}
