import type { Column } from '../../common/table/table.js';
import { generalizeColumn, withMetadataLoss, type GeneralizedColumn, type Hierarchy } from '../../common/recoding/hierarchy.js';
import { directScore, type ScoreRule, type ScoredColumn } from './lattice-score.js';

/** One column of the generalization lattice. */
export interface LatticeColumn {
  /** The column generalized at each level 0 … depth−1. */
  readonly levels: readonly ScoredColumn[];
}

/** A column at every level of its hierarchy (one level without one), scored with the hierarchy-only loss a search may use. */
export function latticeColumn(column: Column, hierarchy: Hierarchy | undefined): LatticeColumn & { readonly levels: readonly GeneralizedColumn[] } {
  return { levels: Array.from({ length: hierarchy ? hierarchy.depth : 1 }, (_, level) => withMetadataLoss(generalizeColumn(column, hierarchy, level), hierarchy, level)) };
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

