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
 */
export function standardize(columns: readonly Float64Array[], n: number): Float64Array {
  const p = columns.length;
  const out = new Float64Array(n * p);
  columns.forEach((values, j) => {
    let sum = 0;
    for (let r = 0; r < n; r++) sum += values[r]!;
    const mean = sum / n;
    let squares = 0;
    for (let r = 0; r < n; r++) squares += (values[r]! - mean) ** 2;
    const variance = squares / n;
    const scale = variance > 0 ? Math.sqrt(variance) : 1;
    for (let r = 0; r < n; r++) out[r * p + j] = (values[r]! - mean) / scale;
  });
  return out;
}

/**
 * MDAV on n records of p standardized values (row-major). Every group has k … 2k − 1 records
 * (only the last may exceed k); n must be at least k.
 */
export function mdav(data: Float64Array, n: number, p: number, k: number): MdavPartition {
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
  while (left >= 2 * k) {
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
  return { groupOf, sizes: Uint32Array.from(sizes), count: sizes.length };
}

/** Each group's released value of one column: the mean, or the median (the middle two averaged, as R's median). */
export function aggregate(values: Float64Array, partition: MdavPartition, how: 'mean' | 'median'): Float64Array {
  const { groupOf, count } = partition;
  const out = new Float64Array(count);
  if (how === 'mean') {
    for (let r = 0; r < values.length; r++) out[groupOf[r]!]! += values[r]!;
    for (let g = 0; g < count; g++) out[g]! /= partition.sizes[g]!;
    return out;
  }
  // Rows by group (counting sort), then each group's values sorted: n log(2k) in all.
  const offsets = new Uint32Array(count + 1);
  for (let g = 0; g < count; g++) offsets[g + 1] = offsets[g]! + partition.sizes[g]!;
  const cursor = offsets.slice(0, count);
  const ordered = new Float64Array(values.length);
  for (let r = 0; r < values.length; r++) ordered[cursor[groupOf[r]!]!++] = values[r]!;
  for (let g = 0; g < count; g++) {
    const group = ordered.subarray(offsets[g]!, offsets[g + 1]!).sort();
    const m = group.length;
    out[g] = m % 2 === 1 ? group[(m - 1) / 2]! : (group[m / 2 - 1]! + group[m / 2]!) / 2;
  }
  return out;
}

/**
 * A released value: rounded half away from zero to `decimals` places, on the value read at 15
 * significant digits first so that a mean such as 1.005 (stored as 1.00499…) rounds as written;
 * trailing zeros are dropped ("37.4", not "37.40").
 */
export function roundedText(value: number, decimals: number): string {
  const scale = 10 ** decimals;
  const scaled = Number((Math.abs(value) * scale).toPrecision(15));
  const rounded = (Math.sign(value) * Math.round(scaled)) / scale;
  const text = (rounded === 0 ? 0 : rounded).toFixed(decimals);
  return decimals > 0 ? text.replace(/\.?0+$/, '') : text;
}

/** Σ_r (x_r − x̄)² over the first n values, in two passes (one for the mean) for accuracy. */
function squaresAboutMean(values: Float64Array, n: number): number {
  let sum = 0;
  for (let r = 0; r < n; r++) sum += values[r]!;
  const mean = sum / n;
  let squares = 0;
  for (let r = 0; r < n; r++) squares += (values[r]! - mean) ** 2;
  return squares;
}

/**
 * Information loss of the release on the standardized columns: SSE / SST, where SST = Σ_r ‖z_r − z̄‖²
 * (the total sum of squares of the z-scores, n·p when no column is constant) and
 * SSE = Σ_r ‖z_r − z′_r‖², z′_r the released value of record r on the same scale. With the mean
 * and no rounding, SSE is the within-group sum of squares of Domingo-Ferrer & Mateo-Sanz (2002), and
 * SSE/SST lies in [0, 1]: 0 when every group is homogeneous.
 */
export function sseOverSst(original: readonly Float64Array[], released: readonly Float64Array[], n: number): { sse: number; sst: number; ratio: number } {
  let sse = 0;
  let sst = 0;
  original.forEach((values, j) => {
    const out = released[j]!;
    const squares = squaresAboutMean(values, n);
    const variance = squares / n;
    const scale2 = variance > 0 ? variance : 1;
    sst += squares / scale2;
    let e = 0;
    for (let r = 0; r < n; r++) e += (values[r]! - out[r]!) ** 2;
    sse += e / scale2;
  });
  return { sse, sst, ratio: sst > 0 ? sse / sst : 0 };
}

/**
 * sdcMicro's IL1s as `dUtility(x, xm, method = "IL1")` computes it (R/dUtility.R):
 * (1 / (n·p)) Σ_j Σ_r |x_rj − x′_rj| / S_j · √2, S_j the sample standard deviation (n − 1) of
 * column j. The code multiplies by √2 where the paper it cites (Mateo-Sanz, Sebé, Domingo-Ferrer
 * 2004) divides by √2·S_j; the figure here is sdcMicro's, so the two tools agree. A constant
 * column adds nothing (R's 0/0 is dropped by its na.rm). 0 when nothing changed; unbounded above.
 */
export function il1s(original: readonly Float64Array[], released: readonly Float64Array[], n: number): number {
  if (n < 2 || original.length === 0) return 0;
  let total = 0;
  original.forEach((values, j) => {
    const out = released[j]!;
    const sd = Math.sqrt(squaresAboutMean(values, n) / (n - 1));
    if (sd === 0) return;
    let deviations = 0;
    for (let r = 0; r < n; r++) deviations += Math.abs(values[r]! - out[r]!);
    total += (deviations / sd) * Math.SQRT2;
  });
  return total / (n * original.length);
}
