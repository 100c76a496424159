import type { Column } from '../../common/table/table.js';
import { generalizeColumn, withMetadataLoss, type GeneralizedColumn, type Hierarchy } from '../../common/recoding/hierarchy.js';
import { latticeNodesOf, latticeSizeOf, nodeAtIndex } from '../../common/recoding/lattice.js';
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

const depthsOf = (columns: readonly LatticeColumn[]): number[] => columns.map((c) => c.levels.length);

export function latticeSize(columns: readonly LatticeColumn[]): number {
  return latticeSizeOf(depthsOf(columns));
}

/** Every node, the first column varying slowest. */
export function latticeNodes(columns: readonly LatticeColumn[]): number[][] {
  return latticeNodesOf(depthsOf(columns));
}

/** The node at a position of latticeNodes order, without listing them all. */
export function nodeAt(columns: readonly LatticeColumn[], index: number): number[] {
  return nodeAtIndex(depthsOf(columns), index);
}

export function nodeScore(rule: ScoreRule, columns: readonly LatticeColumn[], node: readonly number[], sample: Uint32Array): number {
  return directScore(rule, columns.map((c, j) => c.levels[node[j]!]!), sample);
}

