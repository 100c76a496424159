import { exactCandidates, exponentialMechanism, type Candidates } from '../../common/dp/exponential-mechanism.js';
import type { RandomSource } from '../../common/random/source.js';
import { div, rational, rationalFromNumber } from '../../common/exact/rational.js';
import { nodeAt, nodeScore, type LatticeColumn } from './lattice.js';
import { scoreLattice } from './lattice-rollup.js';
import { scoreSensitivity, type ScoreRule } from './lattice-score.js';
import { maxOf } from '../../common/extremes.js';

/*
 * Differentially private choice of the generalization: the exponential mechanism over the lattice of level
 * combinations, scored on the sample with the rule of lattice-score.ts.
 */

export interface LatticeChoice {
  readonly node: readonly number[];
  /** Scores in records (score / unit); bestScore is the best among the nodes the search could choose. */
  readonly score: number;
  readonly bestScore: number;
  /** Nodes whose exact score was computed. */
  readonly scored: number;
}

const PRUNE_GAMMA = 10;

/**
 * One exponential-mechanism draw over every node of the lattice. Branches the
 * roll-up bounds instead of scoring are scored directly if the draw needs them.
 */
export function chooseGeneralization(source: RandomSource, rule: ScoreRule, columns: readonly LatticeColumn[], sample: Uint32Array, epsilon: number, onProgress?: (fraction: number) => void): LatticeChoice {
  // A bound PRUNE_GAMMA below the best makes the exponential mechanism's first coin fail with
  // probability 1 − e^−PRUNE_GAMMA, so bounded nodes almost never need their exact score.
  const margin = Math.ceil((PRUNE_GAMMA * 2 * rule.slope * rule.unit) / epsilon);
  const lattice = scoreLattice(rule, columns, sample, { prune: { margin }, ...(onProgress ? { onProgress } : {}) });
  const resolved = new Map<number, number>();
  const exactScore = (i: number): number => {
    if (lattice.exact[i] === 1) return lattice.score[i]!;
    let score = resolved.get(i);
    if (score === undefined) resolved.set(i, (score = nodeScore(rule, columns, nodeAt(columns, i), sample)));
    return score;
  };
  const candidates: Candidates = { value: lattice.score, isExact: (i) => lattice.exact[i] === 1, resolve: exactScore };
  const chosen = exponentialMechanism(source, candidates, rationalFromNumber(epsilon), scoreSensitivity(rule));
  const scored = lattice.exact.reduce((sum, e) => sum + e, 0) + resolved.size;
  return { node: nodeAt(columns, chosen), score: exactScore(chosen) / rule.unit, bestScore: lattice.best / rule.unit, scored };
}

/**
 * SafePub's strategy (Bild, Kuhn, Prasser 2018) for lattices too large to
 * score whole: walk up from the most specific node, choosing each step among
 * the successors with the exponential mechanism, then choose the output among
 * the visited nodes the same way. The budget is split equally over the steps
 * and the final choice (sequential composition). Unlike ARX, the output is not
 * the best visited node by its true score, which would spend budget no one
 * accounts for.
 */
export function choosePath(source: RandomSource, rule: ScoreRule, columns: readonly LatticeColumn[], sample: Uint32Array, epsilon: number): LatticeChoice & { readonly steps: number } {
  const steps = columns.reduce((sum, c) => sum + c.levels.length - 1, 0);
  const share = div(rationalFromNumber(epsilon), rational(BigInt(steps + 1)));
  const sensitivity = scoreSensitivity(rule);
  const cache = new Map<string, number>();
  const scoreOf = (node: readonly number[]): number => {
    const key = node.join(',');
    let score = cache.get(key);
    if (score === undefined) cache.set(key, (score = nodeScore(rule, columns, node, sample)));
    return score;
  };
  let current = columns.map(() => 0);
  const visited: number[][] = [current];
  for (let step = 0; step < steps; step++) {
    const successors = columns.flatMap((c, j) => (current[j]! + 1 < c.levels.length ? [current.map((l, i) => (i === j ? l + 1 : l))] : []));
    if (successors.length === 0) break;
    current = successors[exponentialMechanism(source, exactCandidates(successors.map(scoreOf)), share, sensitivity)]!;
    visited.push(current);
  }
  const scores = visited.map(scoreOf);
  const chosen = exponentialMechanism(source, exactCandidates(scores), share, sensitivity);
  return { node: visited[chosen]!, score: scores[chosen]! / rule.unit, bestScore: maxOf(scores) / rule.unit, scored: cache.size, steps };
}
