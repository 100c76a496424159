/**
 * Partitioned MDAV: MDAV within blocks, for tables too large for MDAV's n² work. The records are
 * ordered along the first principal direction of their z-scores (the direction of greatest
 * spread, so records close in that order tend to be close), cut into consecutive blocks of
 * `blockSize` … 2·blockSize − 1 records, and MDAV (mdav.ts, on the same global z-scores) forms the
 * groups of each block on its own. Every group still has k … 2k − 1 records, so every released
 * combination of the aggregated columns is shared by at least k records, exactly as with MDAV;
 * what is lost is only optimality: a group never crosses a block boundary. Work n·B·(p + 2)/(2k)
 * instead of n²·(p + 2)/(2k). Deterministic (verify reruns it): a fixed number of power-iteration
 * steps in a fixed order, ties in the order broken by row number, each block's records in row order.
 */
import { mdav, type MdavPartition } from './mdav.js';

/** Records per block when the job does not say. */
export const DEFAULT_BLOCK_SIZE = 5000;
const POWER_STEPS = 64;

/** The algorithm a job chose, with its block size. */
export type Algorithm = { readonly kind: 'mdav' } | { readonly kind: 'partitioned-mdav'; readonly blockSize: number };

export function algorithmOf(spec: { readonly algorithm?: 'mdav' | 'partitioned-mdav' | undefined; readonly blockSize?: number | undefined }): Algorithm {
  return spec.algorithm === 'partitioned-mdav' ? { kind: 'partitioned-mdav', blockSize: spec.blockSize ?? DEFAULT_BLOCK_SIZE } : { kind: 'mdav' };
}

/** The work of partitioned MDAV in mdavWork's units: each block's m²·(p + 2)/(2k), at most n·2B·(p + 2)/(2k) in all. */
export function partitionedWork(n: number, p: number, k: number, blockSize: number): number {
  return blockSizes(n, blockSize).reduce((w, m) => w + (m * m * (p + 2)) / (2 * k), 0);
}

/** Block sizes: ⌊n / B⌋ blocks (one when n < 2B) as equal as whole records allow, each ≥ B when n ≥ B. */
export function blockSizes(n: number, blockSize: number): number[] {
  const blocks = Math.max(1, Math.floor(n / blockSize));
  return Array.from({ length: blocks }, (_, i) => Math.floor((n * (i + 1)) / blocks) - Math.floor((n * i) / blocks));
}

/**
 * The unit vector of greatest spread of the row-major z-scores: power iteration on their p × p
 * cross-product matrix, a fixed number of steps (deterministic, not a tolerance).
 */
export function firstPrincipalDirection(data: Float64Array, n: number, p: number): Float64Array {
  const cross = new Float64Array(p * p);
  for (let r = 0; r < n; r++) {
    const base = r * p;
    for (let a = 0; a < p; a++) {
      const x = data[base + a]!;
      for (let b = a; b < p; b++) cross[a * p + b]! += x * data[base + b]!;
    }
  }
  for (let a = 0; a < p; a++) for (let b = 0; b < a; b++) cross[a * p + b] = cross[b * p + a]!;
  // Start from the matrix's longest column (its component along the top eigenvector u is λ·u_a,
  // zero only if u misses that column entirely; a fixed start such as (1, …, 1) can be orthogonal to u).
  let longest = 0;
  let longestNorm = -1;
  for (let a = 0; a < p; a++) {
    let norm = 0;
    for (let b = 0; b < p; b++) norm += cross[b * p + a]! ** 2;
    if (norm > longestNorm) {
      longestNorm = norm;
      longest = a;
    }
  }
  let v = new Float64Array(p);
  v[longest] = 1;
  for (let step = 0; step < POWER_STEPS; step++) {
    const next = new Float64Array(p);
    for (let a = 0; a < p; a++) for (let b = 0; b < p; b++) next[a]! += cross[a * p + b]! * v[b]!;
    const norm = Math.hypot(...next);
    // A zero matrix (every column constant): any direction orders the records alike.
    if (!(norm > 0)) break;
    for (let a = 0; a < p; a++) next[a]! /= norm;
    v = next;
  }
  return v;
}

/** Partitioned MDAV on n records of p standardized values (row-major); n ≥ k and blockSize ≥ k. */
export function partitionedMdav(data: Float64Array, n: number, p: number, k: number, blockSize: number, onProgress?: (fraction: number) => void): MdavPartition {
  if (!Number.isInteger(blockSize) || blockSize < k) throw new RangeError(`the block size must be a whole number ≥ k = ${k}, not ${blockSize}`);
  const direction = firstPrincipalDirection(data, n, p);
  const position = new Float64Array(n);
  for (let r = 0; r < n; r++) {
    let x = 0;
    for (let j = 0; j < p; j++) x += data[r * p + j]! * direction[j]!;
    position[r] = x;
  }
  const order = Uint32Array.from({ length: n }, (_, r) => r).sort((a, b) => position[a]! - position[b]! || a - b);
  const groupOf = new Uint32Array(n);
  const sizes: number[] = [];
  const sizesOfBlocks = blockSizes(n, blockSize);
  const total = partitionedWork(n, p, k, blockSize);
  let done = 0;
  let start = 0;
  for (const m of sizesOfBlocks) {
    // The block's records in row order: MDAV's ties then fall as they would on the block alone.
    const rows = order.slice(start, start + m).sort();
    const block = new Float64Array(m * p);
    for (let i = 0; i < m; i++) block.set(data.subarray(rows[i]! * p, rows[i]! * p + p), i * p);
    const part = mdav(block, m, p, k);
    const offset = sizes.length;
    for (let i = 0; i < m; i++) groupOf[rows[i]!] = offset + part.groupOf[i]!;
    for (const s of part.sizes) sizes.push(s);
    start += m;
    done += (m * m * (p + 2)) / (2 * k);
    onProgress?.(done / total);
  }
  return { groupOf, sizes: Uint32Array.from(sizes), count: sizes.length };
}
