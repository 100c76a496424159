/**
 * MDAV microaggregation (Maximum Distance to Average Vector): Domingo-Ferrer & Mateo-Sanz,
 * "Practical data-oriented microaggregation for statistical disclosure control" (IEEE TKDE 2002);
 * the fixed-size variant of Domingo-Ferrer & Torra, "Ordinal, continuous and heterogeneous
 * k-anonymity through microaggregation" (DMKD 2005), as sdcMicro runs it for
 * `microaggregation(method = "mdav")` (sdcTools/sdcMicro, src/Mdav.h, function `Mdav`):
 *
 * - each column is weighted by 1 / its population variance, i.e. squared Euclidean distance on
 *   z-scores (x − mean) / sd with sd = √(Σ(x − mean)² / n), as Mdav.h's `g_pWeight[i] /= Variance`;
 *   a constant column (variance 0) keeps weight 1, as there;
 * - while at least 3k records remain: r = the remaining record farthest from the centroid of the
 *   remaining records; s = the record farthest from r; a group of the k records nearest to r is
 *   formed and removed, then a group of the k records nearest to s among those left;
 * - with 2k … 3k − 1 left: one group of the k nearest to r, and the rest (k … 2k − 1) is the last;
 * - with k … 2k − 1 left: they form the last group.
 *
 * Differences from sdcMicro, all on ties and rounding only: distances are float64 (sdcMicro's are
 * float32), and "nearest" and "farthest" break ties by the lower row number (sdcMicro's first in
 * row order for the farthest, its hash-bucket order for the nearest). Missing values are refused by
 * the caller rather than given sdcMicro's range distance.
 *
 * Cost: each round scans the remaining records a constant number of times, so n²/(2k)·p work in
 * all; everything is typed arrays, no object per record.
 */

/** The partition MDAV found: a group number per record, and each group's size. */
export interface MdavPartition {
  readonly groupOf: Uint32Array;
  readonly sizes: Uint32Array;
  readonly count: number;
}

/**
 * Z-scores of the columns, row-major (record r, column j at r·p + j): (x − mean) / sd with the
 * population sd; a constant column stays centred with scale 1 (sdcMicro leaves its weight at 1).
 * Where the plain sums overflow or underflow (values near ±1e308, or a spread below 1e-150) the
 * column is first mapped onto [−1, 1] by its midpoint and half range: z-scores do not change under
 * such a map, and the sums then stay finite and normal.
 */
export function standardize(columns: readonly Float64Array[], n: number): Float64Array {
  const p = columns.length;
  const out = new Float64Array(n * p);
  columns.forEach((values, j) => {
    if (!zScores(values, n, j, p, out)) zScores(onUnitRange(values, n), n, j, p, out);
  });
  return out;
}

/** Column j's z-scores into out; false when a sum overflowed or the spread underflowed (out is then rewritten). */
function zScores(values: Float64Array, n: number, j: number, p: number, out: Float64Array): boolean {
  let sum = 0;
  let low = Infinity;
  let high = -Infinity;
  for (let r = 0; r < n; r++) {
    const v = values[r]!;
    sum += v;
    if (v < low) low = v;
    if (v > high) high = v;
  }
  const mean = sum / n;
  let squares = 0;
  for (let r = 0; r < n; r++) squares += (values[r]! - mean) ** 2;
  const variance = squares / n;
  // 2^-1000: below it the squares were subnormal (or zero though the values differ).
  if (!Number.isFinite(variance) || (low < high && variance < 2 ** -1000)) return false;
  const scale = variance > 0 ? Math.sqrt(variance) : 1;
  for (let r = 0; r < n; r++) out[r * p + j] = (values[r]! - mean) / scale;
  return true;
}

/** The values mapped onto [−1, 1]: (x − mid) / half-range, computed in halves so that nothing overflows. */
function onUnitRange(values: Float64Array, n: number): Float64Array {
  let low = Infinity;
  let high = -Infinity;
  for (let r = 0; r < n; r++) {
    if (values[r]! < low) low = values[r]!;
    if (values[r]! > high) high = values[r]!;
  }
  // Two doubles closer than 2^-500 are both below 2^-448: scaled by 2^600 (exactly) their half range is normal.
  const up = high - low < 2 ** -500 ? 2 ** 600 : 1;
  const mid = (low * up) / 2 + (high * up) / 2;
  const half = (high * up) / 2 - (low * up) / 2;
  return Float64Array.from(values.subarray(0, n), (v) => ((v * up) / 2 - mid / 2) / (half / 2));
}

/**
 * MDAV on n records of p standardized values (row-major). Every group has k … 2k − 1 records
 * (only the last may exceed k); n must be at least k.
 */
export function mdav(data: Float64Array, n: number, p: number, k: number, onProgress?: (fraction: number) => void): MdavPartition {
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`k must be a whole number ≥ 1, not ${k}`);
  if (n < k) throw new RangeError(`${n} record(s) cannot form a group of ${k}`);
  const groupOf = new Uint32Array(n);
  const sizes: number[] = [];
  // The remaining rows in row order; compacted after each group so scans stay short and ties stay by row.
  const active = new Int32Array(n);
  for (let r = 0; r < n; r++) active[r] = r;
  let left = n;
  const taken = new Uint8Array(n);
  const centroid = new Float64Array(p);
  const rPoint = new Float64Array(p);
  const sPoint = new Float64Array(p);
  const dist = new Float64Array(n);
  const heap = new Int32Array(k);
  let heapSize = 0;

  // Passes over the remaining rows are fused (distance, farthest and nearest in one scan; one
  // compaction per round, with the next centroid's sums): the scans are the whole cost.

  /** The remaining row farthest from origin (the first in row order on a tie); distances are not kept. */
  const farthestFrom = (origin: Float64Array): number => {
    let best = active[0]!;
    let bestD = -1;
    for (let a = 0; a < left; a++) {
      const r = active[a]!;
      const base = r * p;
      let d = 0;
      for (let j = 0; j < p; j++) {
        const e = data[base + j]! - origin[j]!;
        d += e * e;
      }
      if (d > bestD) {
        bestD = d;
        best = r;
      }
    }
    return best;
  };
  // The k remaining rows with the least (distance, row): a max-heap of k on that key.
  const before = (x: number, y: number): boolean => dist[x]! < dist[y]! || (dist[x] === dist[y] && x < y);
  const offer = (r: number): void => {
    if (heapSize < k) {
      let i = heapSize++;
      heap[i] = r;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        const up = heap[parent]!;
        if (!before(up, r)) break;
        heap[i] = up;
        i = parent;
      }
      heap[i] = r;
    } else if (before(r, heap[0]!)) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= k) break;
        const rr = l + 1;
        const child = rr < k && before(heap[l]!, heap[rr]!) ? rr : l;
        if (!before(r, heap[child]!)) break;
        heap[i] = heap[child]!;
        i = child;
      }
      heap[i] = r;
    }
  };
  /**
   * Distances from origin into dist, the k nearest into the heap; returns the farthest row (first on
   * a tie). Rows already taken this round (r's group, before the compaction) are passed over.
   */
  const nearestTo = (origin: Float64Array): number => {
    heapSize = 0;
    let best = -1;
    let bestD = -1;
    for (let a = 0; a < left; a++) {
      const r = active[a]!;
      if (taken[r]) continue;
      const base = r * p;
      let d = 0;
      for (let j = 0; j < p; j++) {
        const e = data[base + j]! - origin[j]!;
        d += e * e;
      }
      dist[r] = d;
      if (d > bestD) {
        bestD = d;
        best = r;
      }
      offer(r);
    }
    return best;
  };
  /** The heap's rows become a group: marked taken, left in place until the round's compaction. */
  const takeGroup = (): void => {
    const g = sizes.length;
    for (let i = 0; i < k; i++) {
      taken[heap[i]!] = 1;
      groupOf[heap[i]!] = g;
    }
    sizes.push(k);
  };
  /** The taken rows leave the list; the sums of the rows left go into the centroid. */
  const compact = (): void => {
    centroid.fill(0);
    let w = 0;
    for (let a = 0; a < left; a++) {
      const r = active[a]!;
      if (taken[r]) continue;
      active[w++] = r;
      const base = r * p;
      for (let j = 0; j < p; j++) centroid[j]! += data[base + j]!;
    }
    left = w;
  };
  const load = (into: Float64Array, r: number): Float64Array => {
    for (let j = 0; j < p; j++) into[j] = data[r * p + j]!;
    return into;
  };

  for (let r = 0; r < n; r++) for (let j = 0; j < p; j++) centroid[j]! += data[r * p + j]!;
  let rounds = 0;
  while (left >= 2 * k) {
    // A round costs in proportion to the records left: 1 − (left / n)² of the work is done.
    if (onProgress && rounds++ % 16 === 0) onProgress(1 - (left / n) ** 2);
    const two = left >= 3 * k;
    // The sums to the mean; summed in row order every round, as a fresh pass would.
    for (let j = 0; j < p; j++) centroid[j]! /= left;
    const r = farthestFrom(centroid);
    // s, the row farthest from r, is taken before r's group leaves, as sdcMicro and the paper do.
    const s = nearestTo(load(rPoint, r));
    load(sPoint, s);
    takeGroup();
    if (two) {
      nearestTo(sPoint);
      takeGroup();
    }
    // One compaction per round: the second scan passes over r's group instead.
    compact();
  }
  if (left > 0) {
    const g = sizes.length;
    for (let a = 0; a < left; a++) groupOf[active[a]!] = g;
    sizes.push(left);
  }
  onProgress?.(1);
  return { groupOf, sizes: Uint32Array.from(sizes), count: sizes.length };
}

/**
 * MDAV's work in units of one record's pass in a round: every round scans the records left about
 * three times (p terms each, plus the bookkeeping of about two more), and the rounds take 2k records
 * at a time, so n²·(p + 2)/(2k) in all.
 */
export function mdavWork(n: number, p: number, k: number): number {
  return (n * n * (p + 2)) / (2 * k);
}
