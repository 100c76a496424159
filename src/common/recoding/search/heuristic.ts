import { nodeHeight } from '../lattice.js';
import { ClassBuilder, keyLayout, type ClassTable } from './class-table.js';
import { checkNode } from './evaluate.js';
import { boundedSize } from './level-bounds.js';
import { boundFromLevels, lowerBound, measureOf } from './measures.js';
import { better, cannotBeat, type NodeResult, type SearchResult } from './optimum.js';
import { histogramFor, measuredOf, prepare, type SearchInput } from './search.js';

/** When the heuristic stops: whichever comes first. */
export interface HeuristicBudget {
  /** The most nodes whose classes it forms (a step). Deterministic: the same steps give the same answer. */
  readonly steps?: number;
  /** Milliseconds from the start: the outer stop for a person waiting (not deterministic). */
  readonly milliseconds?: number;
  /** Called now and then with the share of the budget spent. */
  readonly onProgress?: (fraction: number) => void;
  /** The clock (tests may pass one); performance.now by default. */
  readonly now?: () => number;
}

export interface HeuristicResult extends SearchResult {
  /** Nodes whose classes were formed. */
  readonly steps: number;
  /** What stopped it: the search ran out of nodes that could beat its best (the optimum is proven), or a budget. */
  readonly stoppedBy: 'completed' | 'steps' | 'time';
  /**
   * A lower bound on the optimum's measure over the searched lattice: no transformation that meets
   * the models has a smaller measure. Equal to the optimum's measure when `stoppedBy` is completed;
   * undefined when the search found no transformation and cannot bound one (budget out).
   */
  readonly lowerBound: number | undefined;
}

interface Entry {
  readonly node: readonly number[];
  /** A lower bound of the measure at this node and every generalization of it. */
  readonly key: number;
  readonly height: number;
}

/** Lower bound first; then the lower node, then the smaller level vector: a fixed order, so the search is deterministic. */
function before(a: Entry, b: Entry): boolean {
  if (a.key !== b.key) return a.key < b.key;
  if (a.height !== b.height) return a.height < b.height;
  for (let j = 0; j < a.node.length; j++) if (a.node[j] !== b.node[j]) return a.node[j]! < b.node[j]!;
  return false;
}

/** A binary heap of entries in `before` order. */
class Queue {
  private readonly items: Entry[] = [];
  get size(): number {
    return this.items.length;
  }
  peek(): Entry | undefined {
    return this.items[0];
  }
  push(e: Entry): void {
    const a = this.items;
    a.push(e);
    let i = a.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(a[i]!, a[parent]!)) break;
      [a[i], a[parent]] = [a[parent]!, a[i]!];
      i = parent;
    }
  }
  pop(): Entry | undefined {
    const a = this.items;
    const top = a[0];
    const last = a.pop();
    if (a.length > 0 && last) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && before(a[l]!, a[m]!)) m = l;
        if (r < a.length && before(a[r]!, a[m]!)) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m]!, a[i]!];
        i = m;
      }
    }
    return top;
  }
}

/** Thrown inside the search when a budget runs out; caught at its top. */
class BudgetSpent {
  constructor(readonly by: 'steps' | 'time') {}
}

interface Evaluated {
  readonly satisfies: boolean;
  readonly suppressedRecords: number;
  readonly measure: number;
  /** The bound at this node (and its generalizations) from its classes. */
  readonly bound: number;
}

/**
 * A heuristic for lattices too large to search exhaustively, in the spirit of ARX's Lightning: a
 * best-first search from the lattice's lowest node in order of a lower bound of the measure, with a
 * greedy climb from every node that fails the models (to the successor that suppresses the fewest
 * records) so that a transformation that meets them is found early and prunes the rest.
 *
 * The bound: every node's queue key is a lower bound of the measure at it and at each of its
 * generalizations (the measure with nothing suppressed, which grows with every level; for the
 * measures that need classes, the bound at an evaluated predecessor). Every node not yet evaluated
 * is a generalization of some node still queued (the successors of each evaluated node are queued),
 * so the smallest key in the queue bounds the measure of every transformation the search has not
 * seen. When the budget runs out, min(best measure, smallest key) is a lower bound of the optimum;
 * when the queue holds no node that could beat the best, the best is the optimum (the exhaustive
 * search's, ties settled alike). Only evaluated nodes that meet the models are returned.
 */
export function heuristicRecoding(input: SearchInput, budget: HeuristicBudget): HeuristicResult {
  const prepared = prepare(input);
  const { ctx, tables, limit, bounds } = prepared;
  const { models, measure } = input;
  const measured = measuredOf(input);
  const m = bounds.length;
  const builder = new ClassBuilder(input.columns, histogramFor(input), input.rowCount, keyLayout(input.columns), input.subset);
  const lowest = bounds.map((b) => b.min);
  const base = builder.fromRecords(lowest);
  const byLevels = boundFromLevels(measure);
  const now = budget.now ?? (() => performance.now());
  const started = now();
  const maxSteps = budget.steps ?? Infinity;
  const maxMs = budget.milliseconds ?? Infinity;
  const evaluated = new Map<string, Evaluated>();
  const queued = new Set<string>();
  const queue = new Queue();
  let best: NodeResult | undefined;
  let satisfying = 0;
  let steps = 0;

  const keyOf = (node: readonly number[]): string => node.join(',');

  const evaluate = (node: readonly number[]): Evaluated => {
    const known = evaluated.get(keyOf(node));
    if (known) return known;
    if (steps >= maxSteps) throw new BudgetSpent('steps');
    const elapsed = now() - started;
    if (elapsed >= maxMs) throw new BudgetSpent('time');
    steps++;
    if (steps % 16 === 0) budget.onProgress?.(Math.min(1, Math.max(steps / maxSteps, elapsed / maxMs)));
    const table: ClassTable = nodeHeight(node) === nodeHeight(lowest) ? base : builder.lift(base, lowest, node);
    const check = checkNode(table, models, ctx, limit);
    const value = measureOf(measure, table, check.suppressed, node, measured, tables);
    const result: Evaluated = { satisfies: check.satisfies, suppressedRecords: check.suppressedRecords, measure: value, bound: lowerBound(measure, node, measured, tables, table) };
    evaluated.set(keyOf(node), result);
    if (result.satisfies) {
      satisfying++;
      const candidate = { node: [...node], measure: value, suppressedRecords: check.suppressedRecords };
      if (better(candidate, best)) best = candidate;
    }
    // Its successors go to the queue, each keyed by a bound that holds for it and its generalizations.
    for (let j = 0; j < m; j++) {
      if (node[j]! >= bounds[j]!.max) continue;
      const next = [...node];
      next[j]!++;
      const key = keyOf(next);
      if (queued.has(key)) continue;
      queued.add(key);
      const own = byLevels ? lowerBound(measure, next, measured, tables, undefined) : -Infinity;
      queue.push({ node: next, key: Math.max(own, result.bound), height: nodeHeight(next) });
    }
    return result;
  };

  /** From a failing node, up to the successor that suppresses the fewest records (then the lower measure) until one meets the models. */
  const climb = (start: readonly number[]): void => {
    let node = start;
    for (;;) {
      let next: { node: number[]; e: Evaluated } | undefined;
      for (let j = 0; j < m; j++) {
        if (node[j]! >= bounds[j]!.max) continue;
        const candidate = [...node];
        candidate[j]!++;
        // A successor that cannot beat the best is not worth a step.
        if (byLevels && cannotBeat(best, lowerBound(measure, candidate, measured, tables, undefined), candidate, true)) continue;
        const e = evaluate(candidate);
        if (!next || e.suppressedRecords < next.e.suppressedRecords || (e.suppressedRecords === next.e.suppressedRecords && e.measure < next.e.measure)) next = { node: candidate, e };
      }
      if (!next || next.e.satisfies || cannotBeat(best, next.e.bound, next.node, false)) return;
      node = next.node;
    }
  };

  let stoppedBy: HeuristicResult['stoppedBy'] = 'completed';
  try {
    queued.add(keyOf(lowest));
    queue.push({ node: lowest, key: byLevels ? lowerBound(measure, lowest, measured, tables, undefined) : -Infinity, height: nodeHeight(lowest) });
    for (;;) {
      const entry = queue.pop();
      if (!entry) break;
      // Its bound (and its generalizations') cannot beat the best: nothing to gain there.
      if (cannotBeat(best, entry.key, entry.node, true)) continue;
      let e: Evaluated;
      try {
        e = evaluate(entry.node);
      } catch (error) {
        // Not evaluated: it stays in the queue, whose keys bound what the search has not seen.
        queue.push(entry);
        throw error;
      }
      if (!e.satisfies && !cannotBeat(best, e.bound, entry.node, false)) climb(entry.node);
    }
  } catch (error) {
    if (!(error instanceof BudgetSpent)) throw error;
    stoppedBy = error.by;
  }
  budget.onProgress?.(1);
  let bound: number | undefined;
  if (stoppedBy === 'completed') bound = best?.measure;
  else {
    // The smallest key among the queued nodes that could still beat the best bounds what the search has not seen.
    let open = Infinity;
    for (let entry = queue.pop(); entry; entry = queue.pop()) {
      if (cannotBeat(best, entry.key, entry.node, true)) continue;
      open = entry.key;
      break;
    }
    // Without a transformation found there is nothing to be within a distance of.
    bound = best ? Math.min(best.measure, open) : undefined;
  }
  return { optimum: best, nodes: boundedSize(bounds), evaluated: steps, satisfying, satisfyingExact: false, steps, stoppedBy, lowerBound: bound };
}
