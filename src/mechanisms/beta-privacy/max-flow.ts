import type { BetaThresholds } from './thresholds.js';

/**
 * Exact validity of any multi-size setting: valid iff the network
 * source → value i (o_i) → size class j (⌊β_i s_j⌋·n_j) → sink (s_j·n_j)
 * carries a flow of |T|. Used by tests and audits; the algorithms never need it.
 */
export function multiSizeValid(counts: readonly number[], th: BetaThresholds, classes: readonly { size: number; count: number }[]): boolean {
  const total = counts.reduce((a, b) => a + b, 0);
  if (classes.reduce((sum, c) => sum + c.size * c.count, 0) !== total) return false;
  const m = counts.length;
  const k = classes.length;
  const nodes = 2 + m + k;
  const source = 0;
  const sink = nodes - 1;
  const capacity = Array.from({ length: nodes }, () => new Float64Array(nodes));
  counts.forEach((o, i) => {
    capacity[source]![1 + i] = o;
    classes.forEach((c, j) => (capacity[1 + i]![1 + m + j] = th.floorBetaTimes[i]![c.size]! * c.count));
  });
  classes.forEach((c, j) => (capacity[1 + m + j]![sink] = c.size * c.count));
  let flow = 0;
  // Edmonds–Karp: the graph has at most a few hundred nodes.
  for (;;) {
    const parent = new Int32Array(nodes).fill(-1);
    parent[source] = source;
    const queue = [source];
    while (queue.length > 0 && parent[sink] === -1) {
      const u = queue.shift()!;
      for (let v = 0; v < nodes; v++) {
        if (parent[v] === -1 && capacity[u]![v]! > 0) {
          parent[v] = u;
          queue.push(v);
        }
      }
    }
    if (parent[sink] === -1) break;
    let push = Infinity;
    for (let v = sink; v !== source; v = parent[v]!) push = Math.min(push, capacity[parent[v]!]![v]!);
    for (let v = sink; v !== source; v = parent[v]!) {
      capacity[parent[v]!]![v]! -= push;
      capacity[v]![parent[v]!]! += push;
    }
    flow += push;
  }
  return flow === total;
}
