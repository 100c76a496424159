import { latticeNodesOf, latticeSizeOf, nodeAtIndex, nodeHeight } from '../lattice.js';
import { ClassBuilder, keyLayout, type ClassTable, type HistogramCodes } from './class-table.js';
import { checkNode, maxSuppressed, type NodeCheck } from './evaluate.js';
import { monotonyOf, SearchTooLarge, visitBottomUp } from './lattice-visit.js';
import { lowerBound, measureOf, measureTables, type LossSettings, type Measure, type MeasureTables } from './measures.js';
import { exactlyMonotoneWithGeneralization, histogramCodes, modelContext, monotoneWithSuppression, needsSensitive, type ModelContext, type PrivacyModel } from './models.js';
import { better, cannotBeat, type NodeResult, type SearchResult } from './optimum.js';
import type { QuasiColumn, SensitiveColumn } from './recoding-input.js';
import { boundsOf, withinBounds, type LevelBounds } from './level-bounds.js';

// The tests and callers know the search by this module.
export { better, type NodeResult, type SearchResult } from './optimum.js';
export { SearchTooLarge, searchWorkLimit } from './lattice-visit.js';

/** The largest lattice the optimal search takes (global and partitioned recoding alike): beyond it the search's time is not bounded well enough for an interactive tool. */
export const MAX_LATTICE_NODES = 5_000_000;

export interface SearchInput {
  readonly columns: readonly QuasiColumn[];
  /** The sensitive column (a model's `attribute` 0, its default). */
  readonly sensitive?: SensitiveColumn;
  /** Further sensitive columns, attributes 1, 2, …: several sensitive columns, each with its own models (as ARX). */
  readonly moreSensitive?: readonly SensitiveColumn[];
  readonly rowCount: number;
  readonly models: readonly PrivacyModel[];
  /** The largest share of records that may be suppressed, in [0, 1]. */
  readonly suppressionLimit: number;
  readonly measure: Measure;
  /** The Loss's generalization/suppression factor and attribute weights (one per measured column); ARX's defaults without. */
  readonly loss?: LossSettings;
  /**
   * How many of the leading columns the measure sees (default: all). The columns after them are
   * keys of depth 1 that split classes without being released as data: the random part of
   * partitioned recoding, so every part's classes meet the models on their own.
   */
  readonly measuredColumns?: number;
  /** The levels each column may take (undefined: all of them): the search covers that sub-lattice only. */
  readonly bounds?: readonly (LevelBounds | undefined)[];
  /**
   * A research subset (δ-presence, as ARX): 1 for each record in it. The classes are formed over
   * every record (the population), the models other than δ-presence count the subset's records, the
   * suppression limit and the measure are over the subset (what is released). Not with models of the
   * sensitive value.
   */
  readonly subset?: Uint8Array;
}

/** The records the release is drawn from: the research subset's, or all. */
export function outputRecords(input: Pick<SearchInput, 'rowCount' | 'subset'>): number {
  if (!input.subset) return input.rowCount;
  let n = 0;
  for (let r = 0; r < input.rowCount; r++) n += input.subset[r]!;
  return n;
}

/** The columns the measure is taken over. */
export function measuredOf(input: SearchInput): readonly QuasiColumn[] {
  return input.measuredColumns === undefined ? input.columns : input.columns.slice(0, input.measuredColumns);
}

export interface Prepared {
  readonly ctx: ModelContext;
  readonly tables: MeasureTables;
  readonly limit: number;
  readonly depths: number[];
  readonly bounds: LevelBounds[];
}

export function prepare(input: SearchInput): Prepared {
  if (input.models.length === 0) throw new RangeError('at least one privacy model is needed');
  if (input.models.some(needsSensitive) && !input.sensitive) throw new RangeError('ℓ-diversity and t-closeness need a sensitive column');
  if (!(input.suppressionLimit >= 0 && input.suppressionLimit <= 1)) throw new RangeError('the suppression limit is a share in [0, 1]');
  if (input.models.some((m) => m.type === 'delta-presence') && !input.subset) throw new RangeError('δ-presence needs a research subset');
  if (input.subset && (input.models.some(needsSensitive) || input.models.some((m) => m.type === 'average-risk'))) throw new RangeError('a research subset goes with k-anonymity, the highest risk and δ-presence only');
  return {
    ctx: modelContext(sensitiveOf(input), input.rowCount),
    tables: measureTables(measuredOf(input), input.rowCount, input.loss, input.subset),
    limit: maxSuppressed(input.suppressionLimit, outputRecords(input)),
    depths: input.columns.map((c) => c.depth),
    bounds: boundsOf(input.columns.map((c) => c.depth), input.bounds),
  };
}

/** The sensitive columns in attribute order: the one column alone when there is one, so a search of one runs as before. */
const sensitiveOf = (input: SearchInput): SensitiveColumn | readonly SensitiveColumn[] | undefined => (input.sensitive && input.moreSensitive?.length ? [input.sensitive, ...input.moreSensitive] : input.sensitive);

export const histogramFor = (input: SearchInput): HistogramCodes | undefined => (input.models.some(needsSensitive) ? histogramCodes(sensitiveOf(input)) : undefined);

export interface SearchOptions {
  /** false: evaluate every node (the satisfying count is then exact). */
  readonly prune?: boolean;
  /** false: one code array per column instead of packed keys (the path for very wide inputs). */
  readonly packed?: boolean;
  /** auto: top-down when nothing may be suppressed and every model is exactly monotone, else bottom-up. */
  readonly strategy?: 'auto' | 'bottom-up' | 'top-down';
  /** Called now and then with the share of the lattice covered so far. */
  readonly onProgress?: (fraction: number) => void;
  /** The most classes the search may form (searchWorkLimit); beyond, it throws SearchTooLarge. Unbounded by default. */
  readonly maxWork?: number;
  /** Told of every evaluated node that meets the models (bottom-up only: with `prune: false`, every such node). */
  readonly onSatisfying?: (result: NodeResult, table: ClassTable, check: NodeCheck) => void;
}

/**
 * The optimal transformation over the whole lattice, bottom-up (see visitBottomUp). Classes come from
 * a roll-up of the parent node's. Above a node that suppresses nothing the checks are skipped only for
 * models that stay met under merging in exact arithmetic (k-anonymity, distinct ℓ-diversity, the risk
 * thresholds, and entropy ℓ-diversity, recursive (c,ℓ)-diversity, t-closeness and β-likeness, whose
 * boundary classes are decided exactly); δ-disclosure privacy is not monotone at all.
 *
 * With `prune: false` every node is evaluated (and the count is exact). When nothing may be suppressed
 * and every model is exactly monotone, the search runs top-down instead (see topDown).
 */
export function optimalRecoding(input: SearchInput, options: SearchOptions = {}): SearchResult {
  const prune = options.prune ?? true;
  const builder = new ClassBuilder(input.columns, histogramFor(input), input.rowCount, options.packed === false ? undefined : keyLayout(input.columns), input.subset);
  const prepared = prepare(input);
  const { ctx, tables, limit, depths } = prepared;
  const strategy = options.strategy ?? 'auto';
  const monotone = input.models.every(monotoneWithSuppression) || (limit === 0 && input.models.every(exactlyMonotoneWithGeneralization));
  if (strategy === 'top-down' && !monotone) throw new RangeError('the top-down search needs models that are monotone under this suppression limit');
  if (strategy === 'top-down' || (strategy === 'auto' && prune && !options.onSatisfying && limit === 0 && input.models.every(exactlyMonotoneWithGeneralization))) return topDown(input, prepared, builder, prune, options);
  const { models } = input;
  return visitBottomUp<ClassTable>({
    depths,
    monotony: monotonyOf(models),
    scoring: { measure: input.measure, columns: measuredOf(input), tables },
    prune,
    fromRecords: (node) => builder.fromRecords(node),
    rollUp: (parent, node, j) => builder.rollUp(parent, node, j),
    check: (table) => checkNode(table, models, ctx, limit),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.maxWork !== undefined ? { maxWork: options.maxWork } : {}),
    bounds: prepared.bounds,
    ...(options.onSatisfying ? { onSatisfying: options.onSatisfying } : {}),
  });
}

/**
 * The search from the top, for models whose satisfying nodes form an up-set (monotone under the
 * suppression limit): nodes are visited from the highest down, and a node with a failing
 * generalization one level up fails too, unevaluated. With nothing to suppress the optimum is near
 * the up-set's lower edge, so few nodes below it are ever grouped. Each node's classes are lifted
 * in one pass from the bottom node's. The satisfying count is exact.
 */
function topDown(input: SearchInput, prepared: Prepared, builder: ClassBuilder, prune: boolean, options: SearchOptions): SearchResult {
  const { ctx, tables, limit, bounds } = prepared;
  const { columns, models, measure } = input;
  const measured = measuredOf(input);
  // The sub-lattice the bounds allow, indexed by each column's offset from its lowest allowed level.
  const spans = bounds.map((b) => b.max - b.min + 1);
  const m = spans.length;
  const size = latticeSizeOf(spans);
  const stride = new Array<number>(m);
  for (let j = m - 1, s = 1; j >= 0; j--) {
    stride[j] = s;
    s *= spans[j]!;
  }
  const maxHeight = spans.reduce((sum, d) => sum + d - 1, 0);
  const byHeight: number[][] = Array.from({ length: maxHeight + 1 }, () => []);
  for (let index = 0; index < size; index++) byHeight[nodeHeight(nodeAtIndex(spans, index))]!.push(index);
  const FAIL = 2;
  const status = new Uint8Array(size);
  const bottom = columns.map(() => 0);
  const base = builder.fromRecords(bottom);
  let best: NodeResult | undefined;
  let evaluated = 0;
  let satisfying = 0;
  // Each lift forms its classes from the bottom node's: that many classes of work per node evaluated.
  const maxWork = options.maxWork ?? Infinity;
  let work = base.count;
  let done = 0;
  for (let height = maxHeight; height >= 0; height--) {
    for (const index of byHeight[height]!) {
      if (++done % 64 === 0) {
        if (work > maxWork) throw new SearchTooLarge(work, maxWork, evaluated, size);
        options.onProgress?.(done / size);
      }
      const offset = nodeAtIndex(spans, index);
      let implied = false;
      for (let j = 0; j < m && !implied; j++) implied = offset[j]! + 1 < spans[j]! && status[index + stride[j]!] === FAIL;
      if (implied) {
        status[index] = FAIL;
        continue;
      }
      evaluated++;
      work += base.count;
      const node = offset.map((o, j) => o + bounds[j]!.min);
      const table = nodeHeight(node) === 0 ? base : builder.lift(base, bottom, node);
      const check = checkNode(table, models, ctx, limit);
      status[index] = check.satisfies ? 1 : FAIL;
      if (!check.satisfies) continue;
      satisfying++;
      if (prune && cannotBeat(best, lowerBound(measure, node, measured, tables, table), node, true)) continue;
      const result = { node, measure: measureOf(measure, table, check.suppressed, node, measured, tables), suppressedRecords: check.suppressedRecords };
      if (better(result, best)) best = result;
    }
  }
  options.onProgress?.(1);
  return { optimum: best, nodes: size, evaluated, satisfying, satisfyingExact: true };
}

/** Every node evaluated from the records directly, no roll-up and no pruning: the oracle of the tests. */
export function bruteForceRecoding(input: SearchInput): SearchResult & { readonly all: readonly (NodeResult & { readonly satisfies: boolean })[] } {
  const { ctx, tables, limit, depths, bounds } = prepare(input);
  const builder = new ClassBuilder(input.columns, histogramFor(input), input.rowCount, undefined, input.subset);
  let best: NodeResult | undefined;
  const all = latticeNodesOf(depths).filter((node) => withinBounds(node, bounds)).map((node) => {
    const table = builder.fromRecords(node);
    const check = checkNode(table, input.models, ctx, limit);
    const result = { node, measure: measureOf(input.measure, table, check.suppressed, node, measuredOf(input), tables), suppressedRecords: check.suppressedRecords, satisfies: check.satisfies };
    if (check.satisfies && better(result, best)) best = result;
    return result;
  });
  const satisfying = all.filter((r) => r.satisfies).length;
  return { optimum: best, nodes: all.length, evaluated: all.length, satisfying, satisfyingExact: true, all };
}
