import { nodeHeight } from '../lattice.js';

export interface NodeResult {
  readonly node: readonly number[];
  readonly measure: number;
  readonly suppressedRecords: number;
}

export interface SearchResult {
  /** The best satisfying transformation; undefined when none satisfies the models. */
  readonly optimum: NodeResult | undefined;
  readonly nodes: number;
  /** Nodes whose classes were computed. */
  readonly evaluated: number;
  /** Transformations that satisfy the models (among the evaluated ones unless `satisfyingExact`). */
  readonly satisfying: number;
  readonly satisfyingExact: boolean;
}

/** Two measures closer than this (relative) are equal: sums taken in another order differ in the last bits. */
const TOLERANCE = 1e-9;
const near = (a: number, b: number): boolean => Math.abs(a - b) <= TOLERANCE * Math.max(1, Math.abs(a), Math.abs(b));

/**
 * The order of candidates: lower measure; on a tie the lower node (fewer levels in total), then the
 * lexicographically smaller level vector, so the choice does not depend on the order of the search.
 */
export function better(a: NodeResult, b: NodeResult | undefined): boolean {
  if (!b) return true;
  if (!near(a.measure, b.measure)) return a.measure < b.measure;
  const ha = nodeHeight(a.node);
  const hb = nodeHeight(b.node);
  if (ha !== hb) return ha < hb;
  for (let j = 0; j < a.node.length; j++) if (a.node[j] !== b.node[j]) return a.node[j]! < b.node[j]!;
  return false;
}

/**
 * Whether no node of a cone can beat `best`: each has a measure ≥ the bound of the cone's root, and on
 * a tie the lower node wins. Nodes above the root are higher than it; the root itself (when
 * `withRoot`, not evaluated yet) can still win a tie at the best's height by the level order.
 */
export function cannotBeat(best: NodeResult | undefined, bound: number, node: readonly number[], withRoot: boolean): boolean {
  if (best === undefined) return false;
  if (!near(bound, best.measure)) return bound > best.measure;
  const hb = nodeHeight(best.node);
  const hn = nodeHeight(node);
  if (hb !== hn) return hb < hn;
  return !withRoot || !better({ node, measure: best.measure, suppressedRecords: 0 }, best);
}
