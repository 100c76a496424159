/** A candidate as the comparison chart places it: lower is better on both axes. */
export interface RiskErrorPoint {
  readonly risk: number;
  readonly error: number;
}

/** True when a is no worse than b on both axes and better on one. */
export function dominates(a: RiskErrorPoint, b: RiskErrorPoint): boolean {
  return a.risk <= b.risk && a.error <= b.error && (a.risk < b.risk || a.error < b.error);
}

/**
 * Which points no other point dominates (the risk–utility frontier). A point
 * whose risk or error is not a number (no query could be answered) cannot be
 * placed, so it is never on the frontier and dominates nothing. Sorted by risk,
 * then error, a point is on the frontier exactly when its error is below the
 * best error of every point strictly before it in that order; equal points are
 * all kept, since none is better than the other.
 */
export function frontier(points: readonly RiskErrorPoint[]): boolean[] {
  const on = points.map(() => false);
  const placed = points
    .map((p, i) => ({ p, i }))
    .filter(({ p }) => Number.isFinite(p.risk) && Number.isFinite(p.error))
    .sort((a, b) => a.p.risk - b.p.risk || a.p.error - b.p.error);
  let bestError = Infinity;
  let last: { readonly p: RiskErrorPoint; readonly on: boolean } | undefined;
  for (const { p, i } of placed) {
    const twinOfKept = last !== undefined && last.on && last.p.risk === p.risk && last.p.error === p.error;
    on[i] = p.error < bestError || twinOfKept;
    bestError = Math.min(bestError, p.error);
    last = { p, on: on[i]! };
  }
  return on;
}
