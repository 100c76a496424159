import { maxSuppressed } from '../../common/recoding/search/evaluate.js';
import { optimalRecoding, outputRecords, type SearchInput } from '../../common/recoding/search/search.js';

/** The suppression limits the wizard offers beside the chosen one: the steps ARX and sdcMicro users try. */
export const FRONTIER_LIMITS: readonly number[] = [0, 0.01, 0.02, 0.05, 0.1, 0.2];

export interface FrontierPoint {
  /** The smallest limit of the grid with this optimum: any limit from it up to the next point's gives the same transformation. */
  readonly suppressionLimit: number;
  readonly node: readonly number[];
  readonly measure: number;
  readonly suppressedRecords: number;
}

/**
 * The trade-off between utility and deleted records: the optimum at each suppression limit of a grid
 * (the chosen limit included), each found by the exact search, so every point is the best
 * transformation any job with that limit could get. Limits whose optimum is the one of a smaller
 * limit add no choice and are left out; a limit at which nothing satisfies the models has no point.
 * The measure cannot rise with the limit (every transformation allowed at a limit is allowed at a
 * larger one), so the points run from least suppression and most loss to the reverse.
 */
export function suppressionFrontier(input: Omit<SearchInput, 'suppressionLimit'>, limits: readonly number[]): FrontierPoint[] {
  // Limits that allow the same number of records are one limit.
  const byAllowed = new Map<number, number>();
  for (const limit of [...limits].sort((a, b) => a - b)) {
    const allowed = maxSuppressed(limit, outputRecords(input));
    if (!byAllowed.has(allowed)) byAllowed.set(allowed, limit);
  }
  const points: FrontierPoint[] = [];
  for (const suppressionLimit of byAllowed.values()) {
    const { optimum } = optimalRecoding({ ...input, suppressionLimit });
    if (!optimum) continue;
    const last = points[points.length - 1];
    if (last && sameNode(last.node, optimum.node)) continue;
    points.push({ suppressionLimit, node: optimum.node, measure: optimum.measure, suppressedRecords: optimum.suppressedRecords });
  }
  return points;
}

const sameNode = (a: readonly number[], b: readonly number[]): boolean => a.length === b.length && a.every((level, j) => level === b[j]);
