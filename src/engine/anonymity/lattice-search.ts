import { uniformUnit } from '../random/draws.js';
import type { RandomSource } from '../random/source.js';
import { keyColumn, tupleIds } from '../tuple-ids.js';
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

interface ClassList {
  /** Generalized code of each class, per column. */
  readonly codes: Uint32Array[];
  readonly weight: Uint32Array;
}

/**
 * Scores of every lattice node by roll-up: classes at a node are merged from
 * the classes of the node one level finer in one column, never recomputed from
 * the records, so the work per node is the number of classes, not of records.
 */
export function scoreLattice(input: readonly LatticeColumn[], sample: Uint32Array, k: number): { nodes: number[][]; scores: number[] } {
  // Generalizing the widest columns in the outer loops shrinks the class lists the inner loops merge.
  const order = input.map((_, j) => j).sort((a, b) => input[b]!.levels[0]!.dictionary.length - input[a]!.levels[0]!.dictionary.length);
  const result = scoreLatticeInOrder(order.map((j) => input[j]!), sample, k);
  const nodes = result.nodes.map((node) => {
    const back = new Array<number>(input.length);
    order.forEach((j, position) => (back[j] = node[position]!));
    return back;
  });
  // Report nodes in the canonical (input-order, lexicographic) order.
  const indexOf = nodes.map((_, i) => i).sort((a, b) => {
    for (let j = 0; j < input.length; j++) if (nodes[a]![j] !== nodes[b]![j]) return nodes[a]![j]! - nodes[b]![j]!;
    return 0;
  });
  return { nodes: indexOf.map((i) => nodes[i]!), scores: indexOf.map((i) => result.scores[i]!) };
}

function scoreLatticeInOrder(columns: readonly LatticeColumn[], sample: Uint32Array, k: number): { nodes: number[][]; scores: number[] } {
  const m = columns.length;
  // code at level l−1 → code at level l, per column, through the original codes.
  const up = columns.map((c) =>
    c.levels.map((level, l) => {
      if (l === 0) return new Uint32Array(0);
      const map = new Uint32Array(c.levels[l - 1]!.dictionary.length);
      const finer = c.levels[l - 1]!.codes;
      for (let r = 0; r < finer.length; r++) map[finer[r]!] = level.codes[r]!;
      return map;
    }),
  );
  const base = tupleIds(columns.map((c) => keyColumn(c.levels[0]!)), sample, sample.length);
  const first: ClassList = { codes: columns.map(() => new Uint32Array(base.count)), weight: new Uint32Array(base.count) };
  for (let i = 0; i < sample.length; i++) {
    const id = base.ids[i]!;
    first.weight[id]!++;
    for (let j = 0; j < m; j++) first.codes[j]![id] = columns[j]!.levels[0]!.codes[sample[i]!]!;
  }
  const nodes: number[][] = [];
  const scores: number[] = [];
  const levels = new Array<number>(m).fill(0);
  const score = (list: ClassList): number => {
    let total = 0;
    for (let c = 0; c < list.weight.length; c++) {
      if (list.weight[c]! < k) continue;
      let loss = 0;
      for (let j = 0; j < m; j++) loss += columns[j]!.levels[levels[j]!]!.loss[list.codes[j]![c]!]!;
      total += list.weight[c]! * (1 - loss / Math.max(1, m));
    }
    return total;
  };
  const merge = (list: ClassList, j: number, level: number): ClassList => {
    const lift = up[j]![level]!;
    const mapped = list.codes.map((codes, i) => {
      if (i !== j) return codes;
      const out = new Uint32Array(codes.length);
      for (let c = 0; c < codes.length; c++) out[c] = lift[codes[c]!]!;
      return out;
    });
    const key = mapped.map((codes, i) => ({ codes, cardinality: columns[i]!.levels[i === j ? level : levels[i]!]!.dictionary.length }));
    const { ids, count } = tupleIds(key, null, list.weight.length);
    const out: ClassList = { codes: mapped.map(() => new Uint32Array(count)), weight: new Uint32Array(count) };
    for (let c = 0; c < ids.length; c++) {
      const id = ids[c]!;
      out.weight[id]! += list.weight[c]!;
      for (let i = 0; i < m; i++) out.codes[i]![id] = mapped[i]![c]!;
    }
    return out;
  };
  const visit = (j: number, list: ClassList): void => {
    if (j === m) {
      nodes.push([...levels]);
      scores.push(score(list));
      return;
    }
    let current = list;
    for (let level = 0; level < columns[j]!.levels.length; level++) {
      if (level > 0) current = merge(current, j, level);
      levels[j] = level;
      visit(j + 1, current);
    }
    levels[j] = 0;
  };
  visit(0, first);
  return { nodes, scores };
}

/** Index drawn with probability ∝ exp(ε·u/(2Δ)), normalized in log space. */
function exponentialMechanism(source: RandomSource, scores: readonly number[], epsilon: number, sensitivity: number): number {
  const logits = scores.map((u) => (epsilon * u) / (2 * sensitivity));
  const top = Math.max(...logits);
  const weights = logits.map((l) => Math.exp(l - top));
  let u = uniformUnit(source) * weights.reduce((a, b) => a + b, 0);
  for (let i = 0; i < weights.length; i++) {
    u -= weights[i]!;
    if (u < 0) return i;
  }
  return weights.length - 1;
}

/**
 * SafePub's strategy (Bild, Kuhn, Prasser 2018): walk up the lattice from the
 * most specific node, choosing each step among the successors with the
 * exponential mechanism, then choose the output among every visited node. The
 * budget is split equally over the steps and the final choice (sequential
 * composition), and only a few hundred nodes are ever scored.
 */
export function choosePath(source: RandomSource, columns: readonly LatticeColumn[], sample: Uint32Array, k: number, epsilon: number): LatticeChoice & { readonly steps: number } {
  const steps = columns.reduce((sum, c) => sum + c.levels.length - 1, 0);
  const share = epsilon / (steps + 1);
  const cache = new Map<string, number>();
  const scoreOf = (node: readonly number[]): number => {
    const key = node.join(',');
    let score = cache.get(key);
    if (score === undefined) cache.set(key, (score = nodeScore(columns, node, sample, k)));
    return score;
  };
  let current = columns.map(() => 0);
  const visited: number[][] = [current];
  for (let step = 0; step < steps; step++) {
    const successors = columns.flatMap((c, j) => (current[j]! + 1 < c.levels.length ? [current.map((l, i) => (i === j ? l + 1 : l))] : []));
    if (successors.length === 0) break;
    current = successors[exponentialMechanism(source, successors.map(scoreOf), share, k)]!;
    visited.push(current);
  }
  const scores = visited.map(scoreOf);
  const chosen = exponentialMechanism(source, scores, share, k);
  return { node: visited[chosen]!, score: scores[chosen]!, nodes: cache.size, bestScore: Math.max(...scores), steps };
}

/**
 * Samples a node with the exponential mechanism. Weights are normalized in log
 * space and drawn with a 53-bit uniform from the source (a completion: not an
 * exact sampler, stated in the report).
 */
export function chooseGeneralization(source: RandomSource, columns: readonly LatticeColumn[], sample: Uint32Array, k: number, epsilon: number): LatticeChoice {
  const { nodes, scores } = scoreLattice(columns, sample, k);
  const chosen = exponentialMechanism(source, scores, epsilon, k);
  return { node: nodes[chosen]!, score: scores[chosen]!, nodes: nodes.length, bestScore: Math.max(...scores) };
}
