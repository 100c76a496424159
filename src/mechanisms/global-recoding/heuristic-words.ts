import type { HeuristicResult } from '../../common/recoding/search/heuristic.js';
import type { GlobalRecodingSpec } from './definition.js';
import { formatCount } from '../../common/format/numbers.js';

const figure = (x: number): string => String(Number(x.toPrecision(6)));

/** The job's heuristic budget in words (parameters.search). */
export function heuristicSettingText(search: GlobalRecodingSpec['search']): string {
  const seconds = search?.timeLimitSeconds ?? 60;
  return `heuristic: best-first from the lowest transformation with greedy climbs, within ${seconds} s${search?.steps !== undefined ? ` or ${formatCount(search.steps)} transformations evaluated` : ''}, whichever comes first`;
}

/** anonymity.choice when the heuristic chose. */
export function heuristicChoiceText(measureTitle: string, among: string, modelsText: string, limitPercent: string): string {
  return `the transformation with the least ${measureTitle} that a heuristic search found among ${among} meeting ${modelsText} with at most ${limitPercent} of the records suppressed (a best-first search with a budget; ties: fewest levels in total); it is the optimum only when the search completed`;
}

/**
 * What the heuristic did and how far the optimum can be, for the internal report: the optimum when it
 * ran out of transformations that could do better; otherwise the distance to its lower bound.
 */
export function heuristicSummary(r: HeuristicResult, measure: string): string {
  const evaluated = `${formatCount(r.steps)} of the ${formatCount(r.nodes)} transformations`;
  if (r.stoppedBy === 'completed') return `A heuristic search evaluated ${evaluated} and ran out of transformations that could do better: its choice is the optimum, as the exhaustive search would choose.`;
  const why = r.stoppedBy === 'time' ? 'its time limit' : 'its budget of steps';
  if (!r.optimum || r.lowerBound === undefined) return `A heuristic search evaluated ${evaluated} before ${why} stopped it, and found no transformation that meets the models: no bound.`;
  const gap = r.optimum.measure - r.lowerBound;
  return gap <= 1e-9 * Math.max(1, Math.abs(r.optimum.measure))
    ? `A heuristic search evaluated ${evaluated} before ${why} stopped it; no transformation left unseen can have a lower ${measure} than its choice (${figure(r.optimum.measure)}), so it is optimal in ${measure}.`
    : `A heuristic search evaluated ${evaluated} before ${why} stopped it; its choice has ${measure} ${figure(r.optimum.measure)}, within ${figure(gap)} of the optimum: no transformation that meets the models has ${measure} below ${figure(r.lowerBound)}.`;
}
