import { directScore, type ScoreRule, type ScoredColumn } from './lattice-score.js';

/** One column of the generalization lattice. */
export interface LatticeColumn {
  /** The column generalized at each level 0 … depth−1. */
  readonly levels: readonly ScoredColumn[];
}

export function latticeSize(columns: readonly LatticeColumn[]): number {
  return columns.reduce((n, c) => n * c.levels.length, 1);
}

/** Every node, the first column varying slowest. */
export function latticeNodes(columns: readonly LatticeColumn[]): number[][] {
  let nodes: number[][] = [[]];
  for (const c of columns) nodes = nodes.flatMap((prefix) => c.levels.map((_, level) => [...prefix, level]));
  return nodes;
}

/** The node at a position of latticeNodes order, without listing them all. */
export function nodeAt(columns: readonly LatticeColumn[], index: number): number[] {
  const node = new Array<number>(columns.length);
  for (let j = columns.length - 1; j >= 0; j--) {
    const size = columns[j]!.levels.length;
    node[j] = index % size;
    index = Math.floor(index / size);
  }
  return node;
}

export function nodeScore(rule: ScoreRule, columns: readonly LatticeColumn[], node: readonly number[], sample: Uint32Array): number {
  return directScore(rule, columns.map((c, j) => c.levels[node[j]!]!), sample);
}

