import { classesOf } from '../src/common/recoding/classes.js';
import type { LatticeColumn } from '../src/mechanisms/safe-k-anonymity/lattice.js';
import { uniformUnit } from '../src/common/random/draws.js';
import type { RandomSource } from '../src/common/random/source.js';

/**
 * The comparison baseline, re-implemented from ARX 3.9's DataDependentEDDPAlgorithm
 * and SafePub's granularity score (Bild, Kuhn, Prasser 2018, §5.1): start at the
 * most general node, add the predecessors of each pivot to a candidate set, pick
 * the next pivot from it with the exponential mechanism at ε_search/steps, and
 * return the best pivot by its true score. Only the benchmark uses it.
 */
export function safePubSearch(source: RandomSource, columns: readonly LatticeColumn[], sample: Uint32Array, k: number, epsilonSearch: number, steps: number): number[] {
  const m = columns.length;
  const heights = columns.map((c) => c.levels.length - 1);
  const score = (node: readonly number[]): number => {
    const gen = columns.map((c, j) => c.levels[node[j]!]!);
    const { classOf, count } = classesOf(gen, sample);
    const sizes = new Uint32Array(count);
    for (let i = 0; i < classOf.length; i++) sizes[classOf[i]!]!++;
    let unsuppressed = 0;
    for (let c = 0; c < count; c++) if (sizes[c]! >= k) unsuppressed += sizes[c]!;
    const suppressed = sample.length - unsuppressed;
    let s = 0;
    for (let i = 0; i < m; i++) s += unsuppressed * (heights[i] === 0 ? 0 : node[i]! / heights[i]!) + suppressed;
    return -s / m / (k - 1);
  };
  let pivot = [...heights];
  const key = (n: readonly number[]) => n.join(',');
  const candidates = new Map<string, { node: number[]; score: number }>();
  let best = { node: pivot, score: score(pivot) };
  candidates.set(key(pivot), best);
  const seen = new Set<string>([key(pivot)]);
  for (let step = 1; step <= steps; step++) {
    for (let j = 0; j < m; j++) {
      if (pivot[j]! === 0) continue;
      const pred = pivot.map((l, i) => (i === j ? l - 1 : l));
      if (seen.has(key(pred))) continue;
      seen.add(key(pred));
      candidates.set(key(pred), { node: pred, score: score(pred) });
    }
    candidates.delete(key(pivot));
    if (candidates.size === 0) break;
    const list = [...candidates.values()];
    const eps = epsilonSearch / steps;
    const top = Math.max(...list.map((c) => c.score));
    const w = list.map((c) => Math.exp((eps * (c.score - top)) / 2));
    let u = uniformUnit(source) * w.reduce((a, b) => a + b, 0);
    let chosen = list[list.length - 1]!;
    for (let i = 0; i < list.length; i++) {
      u -= w[i]!;
      if (u < 0) {
        chosen = list[i]!;
        break;
      }
    }
    pivot = chosen.node;
    if (chosen.score > best.score) best = chosen;
  }
  return best.node;
}
