import type { ClassTable } from '../../common/recoding/search/class-table.js';
import type { NodeCheck } from '../../common/recoding/search/evaluate.js';
import { better, type NodeResult } from '../../common/recoding/search/optimum.js';

/** The most transformations an assessment lists: the best of them by the search's own order. */
export const MAX_SOLUTIONS = 500;

/** One transformation that meets the models, with what the person weighs it by. */
export interface Solution extends NodeResult {
  /** The highest prosecutor risk among the released records: 1 / the smallest released class (0 when nothing is released). */
  readonly highestRisk: number;
}

/** A satisfying node as the solution space lists it. */
export function solutionOf(result: NodeResult, table: ClassTable, check: NodeCheck): Solution {
  let smallest = Infinity;
  for (let c = 0; c < table.count; c++) if (!check.suppressed[c] && table.sizes[c]! < smallest) smallest = table.sizes[c]!;
  return { node: result.node, measure: result.measure, suppressedRecords: result.suppressedRecords, highestRisk: Number.isFinite(smallest) ? 1 / smallest : 0 };
}

/** The best `MAX_SOLUTIONS` in the search's order (measure, then fewer levels, then the level vector), so the optimum comes first. */
export function bestSolutions(all: readonly Solution[]): Solution[] {
  return [...all].sort((a, b) => (better(a, b) ? -1 : better(b, a) ? 1 : 0)).slice(0, MAX_SOLUTIONS);
}
