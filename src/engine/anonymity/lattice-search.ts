import { uniformUnit } from '../random/draws.js';
import type { RandomSource } from '../random/source.js';
import { classesOf } from './safe-k.js';

/**
 * Differentially private choice of the generalization (as ARX's SafePub does;
 * spec §D.3.2): the exponential mechanism over every node of the lattice of
 * level combinations, scored on the sample. Score u(node) = Σ over records kept
 * in classes of ≥ k of (1 − the record's mean generalization loss); adding or
 * removing one record changes it by at most k (a class crossing the threshold),
 * so Δu = k and Pr[node] ∝ exp(ε_sel·u/(2k)).
 */
export interface LatticeColumn {
  /** Generalized codes of every input row at each level 0 … depth−1. */
  readonly levels: readonly { readonly codes: Uint32Array; readonly dictionary: readonly string[]; readonly loss: Float64Array }[];
}

export interface LatticeChoice {
  readonly node: readonly number[];
  readonly score: number;
  readonly nodes: number;
  readonly bestScore: number;
}

export function latticeNodes(columns: readonly LatticeColumn[]): number[][] {
  let nodes: number[][] = [[]];
  for (const c of columns) nodes = nodes.flatMap((prefix) => c.levels.map((_, level) => [...prefix, level]));
  return nodes;
}

export function nodeScore(columns: readonly LatticeColumn[], node: readonly number[], sample: Uint32Array, k: number): number {
  const generalized = columns.map((c, j) => c.levels[node[j]!]!);
  const { classOf, count } = classesOf(generalized, sample);
  const sizes = new Uint32Array(count);
  for (let i = 0; i < classOf.length; i++) sizes[classOf[i]!]!++;
  let score = 0;
  for (let i = 0; i < sample.length; i++) {
    if (sizes[classOf[i]!]! < k) continue;
    let loss = 0;
    for (const g of generalized) loss += g.loss[g.codes[sample[i]!]!]!;
    score += 1 - loss / Math.max(1, generalized.length);
  }
  return score;
}

/**
 * Samples a node with the exponential mechanism. Weights are normalized in log
 * space and drawn with a 53-bit uniform from the source (a completion: not an
 * exact sampler, stated in the report).
 */
export function chooseGeneralization(source: RandomSource, columns: readonly LatticeColumn[], sample: Uint32Array, k: number, epsilon: number): LatticeChoice {
  const nodes = latticeNodes(columns);
  const scores = nodes.map((node) => nodeScore(columns, node, sample, k));
  const logits = scores.map((u) => (epsilon * u) / (2 * k));
  const top = Math.max(...logits);
  const weights = logits.map((l) => Math.exp(l - top));
  const total = weights.reduce((a, b) => a + b, 0);
  let u = uniformUnit(source) * total;
  let chosen = nodes.length - 1;
  for (let i = 0; i < nodes.length; i++) {
    u -= weights[i]!;
    if (u < 0) {
      chosen = i;
      break;
    }
  }
  return { node: nodes[chosen]!, score: scores[chosen]!, nodes: nodes.length, bestScore: Math.max(...scores) };
}
