import type { ClassTable } from './class-table.js';
import type { NodeCheck } from './evaluate.js';
import { boundFromLevels, lowerBound, measureOf, type Measure, type MeasureTables } from './measures.js';
import { exactlyMonotoneWithGeneralization, monotoneWithSuppression, type PrivacyModel } from './models.js';
import { better, cannotBeat, type NodeResult, type SearchResult } from './optimum.js';
import type { QuasiColumn } from './recoding-input.js';
import { boundedSize, boundsOf, type LevelBounds } from './level-bounds.js';

/** What the models allow the visit to conclude without checking a node. */
export interface Monotony {
  /** A satisfying node's generalizations all satisfy: a pruned subtree below one counts as satisfying. */
  readonly withSuppression: boolean;
  /** Above a node that suppresses nothing no class fails, in exact arithmetic: the checks there are skipped. */
  readonly exactlyWithGeneralization: boolean;
}

export function monotonyOf(models: readonly PrivacyModel[]): Monotony {
  return { withSuppression: models.every(monotoneWithSuppression), exactlyWithGeneralization: models.every(exactlyMonotoneWithGeneralization) };
}

/** What the measure is taken over, with its precomputed tables. */
export interface Scoring {
  readonly measure: Measure;
  readonly columns: readonly QuasiColumn[];
  readonly tables: MeasureTables;
}

/**
 * What differs between the engines that visit the lattice bottom-up: how a node's classes are formed
 * and judged. `T` is the engine's own class table, so a roll-up gets back what it gave.
 */
export interface BottomUpEngine<T extends ClassTable> {
  readonly depths: readonly number[];
  readonly monotony: Monotony;
  readonly scoring: Scoring;
  /** false: evaluate every node (the satisfying count is then exact). */
  readonly prune: boolean;
  /** The classes of the bottom node, from the records. */
  fromRecords(node: readonly number[]): T;
  /** The classes of `node` from those of its parent, which has column `j` one level lower. */
  rollUp(parent: T, node: readonly number[], j: number): T;
  check(table: T): NodeCheck;
  /** Called now and then with the share of the lattice's nodes visited or pruned so far. */
  readonly onProgress?: (fraction: number) => void;
  /** The most classes the visit may form in all (see SearchBudget); beyond, it throws SearchTooLarge. */
  readonly maxWork?: number;
  /** The levels each column may take (default: all): the visit covers that sub-lattice only, from its lowest node. */
  readonly bounds?: readonly LevelBounds[];
  /** Told of every evaluated node that meets the models, with its classes and which of them are suppressed (the solution space). */
  readonly onSatisfying?: (result: NodeResult, table: T, check: NodeCheck) => void;
}

/**
 * A search that would form more classes than its budget: the cost of a node is the classes it
 * forms, so the budget bounds the time whatever the lattice's shape (see searchWorkLimit).
 */
export class SearchTooLarge extends RangeError {
  constructor(
    readonly work: number,
    readonly limit: number,
    readonly visited: number,
    readonly nodes: number,
  ) {
    super(`the search formed ${work.toLocaleString('en-US')} classes over ${visited.toLocaleString('en-US')} of the lattice's ${nodes.toLocaleString('en-US')} nodes and would need more than its limit of ${limit.toLocaleString('en-US')}`);
    this.name = 'SearchTooLarge';
  }
}

/**
 * The most classes a lattice search may form: 150 million, plus 400 per record. Measured on the
 * 2-core development machine under load (load average 15–18, 2026-11-27): 0.6–1.2 µs per class
 * formed (every node of a 46,656-node lattice on 2,000 random records: 59–111 s; on 200: 5 s; a
 * 4,235,364-node lattice on 2,000 records stopped at 3·10^8 classes after 322 s), so the fixed
 * part is about 1.5–3 minutes there and less on a quiet machine; the part per record keeps a
 * search proportionate to reading a large input, whose classes are many but whose lattice is
 * pruned early. `npm run bench` times a search at this limit.
 */
export function searchWorkLimit(rowCount: number): number {
  return 150_000_000 + 400 * rowCount;
}

/** Visits between two progress reports and budget checks. */
const REPORT_EVERY = 64;

/**
 * The optimal node, bottom-up over the set-enumeration tree of the lattice (a node's children raise a
 * column at or after its last raised one), so every node is reached once and its classes are its
 * parent's merged, never the records again. Two prunings, both exact:
 *
 * - above a node that suppresses nothing, when the models are exactly monotone with generalization,
 *   no class fails: the checks are skipped;
 * - every measure has a lower bound from the node alone (the measure with nothing suppressed) that
 *   grows with every level: a subtree whose root's bound is already worse than the best found
 *   (or ties it at a lower node) cannot hold the optimum and is skipped, roll-up included. If the root
 *   satisfies and the models are monotone with suppression, every node of the subtree satisfies too
 *   and is counted as such; otherwise the count of satisfying nodes becomes a lower bound.
 */
export function visitBottomUp<T extends ClassTable>(engine: BottomUpEngine<T>): SearchResult {
  const { monotony, prune } = engine;
  const { measure, columns, tables } = engine.scoring;
  const bounds = boundsOf(engine.depths, engine.bounds);
  // One past the highest level each column may take: the sub-lattice's own depths.
  const depths = bounds.map((b) => b.max + 1);
  const m = depths.length;
  const levelBound = prune && boundFromLevels(measure);
  let best: NodeResult | undefined;
  let evaluated = 0;
  let satisfying = 0;
  let satisfyingExact = true;
  const total = boundedSize(bounds);
  // Nodes visited or skipped with a pruned subtree, and the classes formed: for progress and the budget.
  let covered = 0;
  let work = 0;
  const maxWork = engine.maxWork ?? Infinity;

  const subtreeSize = (node: readonly number[], pivot: number): number => {
    let size = depths[pivot]! - node[pivot]!;
    for (let j = pivot + 1; j < m; j++) size *= depths[j]! - bounds[j]!.min;
    return size;
  };

  const visit = (node: number[], table: T, pivot: number, parentClean: boolean): void => {
    evaluated++;
    covered++;
    work += table.count;
    if (evaluated % REPORT_EVERY === 0) {
      if (work > maxWork) throw new SearchTooLarge(work, maxWork, evaluated, total);
      engine.onProgress?.(covered / total);
    }
    const check: NodeCheck = parentClean && monotony.exactlyWithGeneralization ? { suppressed: new Uint8Array(table.count), suppressedRecords: 0, satisfies: true } : engine.check(table);
    if (check.satisfies) {
      satisfying++;
      const result = { node: [...node], measure: measureOf(measure, table, check.suppressed, node, columns, tables), suppressedRecords: check.suppressedRecords };
      engine.onSatisfying?.(result, table, check);
      if (better(result, best)) best = result;
    }
    if (prune && cannotBeat(best, lowerBound(measure, node, columns, tables, table), node, false)) {
      const below = subtreeSize(node, pivot) - 1;
      covered += below;
      if (below > 0) {
        if (check.satisfies && monotony.withSuppression) satisfying += below;
        else satisfyingExact = false;
      }
      return;
    }
    // Children whose bound is lowest first: a good optimum found early prunes more of the rest.
    const children: { j: number; bound: number }[] = [];
    for (let j = pivot; j < m; j++) {
      if (node[j]! + 1 >= depths[j]!) continue;
      node[j]!++;
      children.push({ j, bound: levelBound ? lowerBound(measure, node, columns, tables, undefined) : 0 });
      node[j]!--;
    }
    if (levelBound) children.sort((a, b) => a.bound - b.bound || a.j - b.j);
    // A child's parent is clean when every class meets the models: nothing suppressed and the node satisfied (δ-presence can fail with nothing suppressed).
    for (const { j, bound } of children) {
      node[j]!++;
      // A bound from the levels alone spares the child's roll-up too.
      if (levelBound && cannotBeat(best, bound, node, true)) {
        covered += subtreeSize(node, j);
        if (check.satisfies && monotony.withSuppression) satisfying += subtreeSize(node, j);
        else satisfyingExact = false;
      } else visit(node, engine.rollUp(table, node, j), j, check.satisfies && check.suppressedRecords === 0);
      node[j]!--;
    }
  };

  const bottom = bounds.map((b) => b.min);
  visit(bottom, engine.fromRecords(bottom), 0, false);
  engine.onProgress?.(1);
  return { optimum: best, nodes: total, evaluated, satisfying, satisfyingExact };
}
