/**
 * A stable counting sort by dictionary code: order lists the items with code 0
 * first, then code 1, …, each in its previous order; the items of code v are
 * order[start[v] … start[v + 1]). With no order given, the items are 0 … n−1 —
 * the rows of each value of a column, as posting lists.
 */
export function sortByCode(codes: ArrayLike<number>, cardinality: number, order?: Uint32Array): { readonly order: Uint32Array; readonly start: Uint32Array } {
  const n = order ? order.length : codes.length;
  const start = new Uint32Array(cardinality + 1);
  for (let i = 0; i < n; i++) start[codes[order ? order[i]! : i]! + 1]!++;
  for (let v = 0; v < cardinality; v++) start[v + 1]! += start[v]!;
  const next = start.slice(0, cardinality);
  const sorted = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const item = order ? order[i]! : i;
    sorted[next[codes[item]!]!++] = item;
  }
  return { order: sorted, start };
}
