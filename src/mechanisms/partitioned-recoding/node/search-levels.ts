import type { Column } from '../../../common/table/table.js';
import { HierarchyError } from '../../../common/recoding/hierarchy.js';
import { latticeSizeOf } from '../../../common/recoding/lattice.js';
import type { PrivacyModel as PartModel } from '../../../common/recoding/partitioned.js';
import type { PrivacyModel } from '../../../common/recoding/search/models.js';
import { quasiColumn, sensitiveColumn, type QuasiColumn } from '../../../common/recoding/search/recoding-input.js';
import { MAX_LATTICE_NODES, optimalRecoding, SearchTooLarge, searchWorkLimit, type SearchResult } from '../../../common/recoding/search/search.js';
import { searchTooLargeText } from '../../../jobs/method-kit/search-limit.js';
import { optimalPartitionedRecoding } from '../../../common/recoding/search/partitioned-search.js';
import { HistogramTooLarge } from '../../../common/recoding/search/class-table.js';
import type { Measure } from '../../../common/recoding/search/measures.js';
import { JobError } from '../../../common/job/job-error.js';
import type { Plan } from '../../../jobs/method-kit/plan.js';
import type { loadHierarchies } from '../../../jobs/method-kit/recoding.js';
import { formatCount } from '../../../common/format/numbers.js';


/** The part of every record as a key column of depth 1: it splits classes by part and is never generalized or measured. */
function partColumn(split: readonly Uint32Array[], rowCount: number): QuasiColumn {
  const parts = split.length;
  const codes = new Uint32Array(rowCount);
  split.forEach((rows, p) => {
    for (const r of rows) codes[r] = p + 1;
  });
  const identity = Uint32Array.from({ length: parts + 1 }, (_, code) => code);
  return {
    name: '(part)',
    codes,
    depth: 1,
    cardinality: [parts + 1],
    up: [],
    lift: [identity],
    share: [new Float64Array(parts + 1).fill(1 / parts)],
    domainSize: parts,
    labels: [['', ...split.map((_, p) => String(p + 1))]],
  };
}

/** The partitioned model as the search's model (distinct ℓ-diversity; t-closeness by equal distance). */
function searchModel(model: PartModel): PrivacyModel {
  if (model.type === 'k-anonymity') return { type: 'k-anonymity', k: model.k };
  if (model.type === 'l-diversity') return { type: 'distinct-l-diversity', l: model.l };
  // The release keeps a class within t + 1e-12 (partitioned.ts): the search judges with the same tolerance, so both delete the same classes.
  return { type: 't-closeness', t: model.t + 1e-12, distance: 'equal' };
}

export interface SearchedLevels {
  /** Column → level, keyed without a prototype (names are data). */
  readonly levels: Record<string, number>;
  readonly result: SearchResult;
  readonly milliseconds: number;
}

/**
 * The optimal recoding shared by every part: the lattice of the quasi-identifiers' hierarchy levels
 * searched as global recoding searches it, with the part as a key of every class, so a node
 * satisfies when, in every part, the classes that fail the model hold at most the limit's records in
 * all. k-anonymity and distinct ℓ-diversity stay monotone per part (a generalization merges classes
 * of one part only), so the search prunes as it does for one table. t-closeness compares a class with
 * its own part's distribution: over several parts the per-part engine (partitioned-search.ts) searches it.
 */
export function searchPartLevels(
  plan: Plan,
  quasi: readonly Column[],
  loaded: ReturnType<typeof loadHierarchies>,
  split: readonly Uint32Array[],
  rowCount: number,
  model: PartModel,
  spec: { readonly suppressionLimit: number; readonly measure: Measure },
  onProgress?: (fraction: number) => void,
): SearchedLevels {
  let columns: QuasiColumn[];
  try {
    columns = quasi.map((column) => quasiColumn(column, loaded.get(column.name)?.hierarchy));
  } catch (error) {
    if (error instanceof HierarchyError) throw new JobError(error.message, 'method.hierarchies');
    throw error;
  }
  const nodes = latticeSizeOf(columns.map((c) => c.depth));
  if (nodes > MAX_LATTICE_NODES) throw new JobError(`the lattice has ${formatCount(nodes)} nodes, more than the ${formatCount(MAX_LATTICE_NODES)} the search takes; use fewer hierarchy levels or fewer quasi-identifiers`, 'method.hierarchies');
  const sensitive = model.type === 'k-anonymity' ? undefined : sensitiveColumn(plan.sensitive[0]!);
  const keyed = split.length > 1 ? [...columns, partColumn(split, rowCount)] : columns;
  const started = performance.now();
  let result: SearchResult;
  try {
    // t-closeness compares a class with its own part's distribution, which one table with the part as a key
    // cannot (the engine's reference is the whole table): the per-part engine judges every part on its own.
    const options = { ...(onProgress ? { onProgress } : {}), maxWork: searchWorkLimit(rowCount) };
    result =
      model.type === 't-closeness' && split.length > 1
        ? optimalPartitionedRecoding({ columns, ...(sensitive ? { sensitive } : {}), rowCount, parts: split, models: [searchModel(model)], suppressionLimit: spec.suppressionLimit, measure: spec.measure }, options)
        : optimalRecoding({ columns: keyed, ...(sensitive ? { sensitive } : {}), rowCount, models: [searchModel(model)], suppressionLimit: spec.suppressionLimit, measure: spec.measure, measuredColumns: columns.length }, options);
  } catch (error) {
    if (error instanceof HistogramTooLarge) throw new JobError(error.message, 'method.model');
    if (error instanceof SearchTooLarge) throw new JobError(searchTooLargeText(error, rowCount), 'method.hierarchies');
    throw error;
  }
  const milliseconds = performance.now() - started;
  if (!result.optimum) {
    throw new JobError(
      `no recoding of the ${formatCount(nodes)} in the lattice meets the model in every part with at most ${Number((spec.suppressionLimit * 100).toFixed(4))} % of the records deleted; allow more suppression, add hierarchy levels, use fewer parts or relax the model`,
      'method.model',
    );
  }
  const levels = Object.create(null) as Record<string, number>;
  columns.forEach((column, j) => (levels[column.name] = result.optimum!.node[j]!));
  return { levels, result, milliseconds };
}
