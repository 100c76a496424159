/**
 * Distances between two contingency tables of the same cells, each read as a distribution: its
 * cells divided by its total. A cell below 0 (an estimate through randomized response's unbiased
 * estimator can be) is taken as 0 first. A table whose total is 0 (nothing released) is no
 * distribution: the distance to it is the largest, 1, for both.
 *
 * - total variation: ½ Σ |p − q|, the largest difference in the share of records of any set of cells;
 * - Hellinger: √(½ Σ (√p − √q)²), between 0 and 1 as well.
 */

export function asDistribution(cells: ArrayLike<number>): Float64Array | undefined {
  let total = 0;
  for (let i = 0; i < cells.length; i++) total += cells[i]! > 0 ? cells[i]! : 0;
  if (!(total > 0)) return undefined;
  return Float64Array.from({ length: cells.length }, (_, i) => (cells[i]! > 0 ? cells[i]! / total : 0));
}

export function totalVariation(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const p = asDistribution(a);
  const q = asDistribution(b);
  if (!p || !q) return p === q ? 0 : 1;
  let sum = 0;
  for (let i = 0; i < p.length; i++) sum += Math.abs(p[i]! - q[i]!);
  return Math.min(1, sum / 2);
}

export function hellinger(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const p = asDistribution(a);
  const q = asDistribution(b);
  if (!p || !q) return p === q ? 0 : 1;
  let sum = 0;
  for (let i = 0; i < p.length; i++) sum += (Math.sqrt(p[i]!) - Math.sqrt(q[i]!)) ** 2;
  return Math.min(1, Math.sqrt(sum / 2));
}

/** The margins of a rows × cols table stored row by row: [row sums, column sums]. */
export function margins(cells: ArrayLike<number>, rows: number, cols: number): [Float64Array, Float64Array] {
  const r = new Float64Array(rows);
  const c = new Float64Array(cols);
  for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) {
    r[i]! += cells[i * cols + j]!;
    c[j]! += cells[i * cols + j]!;
  }
  return [r, c];
}
