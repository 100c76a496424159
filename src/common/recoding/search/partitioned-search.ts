import { latticeNodesOf } from '../lattice.js';
import { ClassBuilder, keyLayout, type ClassTable } from './class-table.js';
import { checkNode, maxSuppressed, type NodeCheck } from './evaluate.js';
import { monotonyOf, visitBottomUp } from './lattice-visit.js';
import { measureOf, measureTables, type Measure } from './measures.js';
import { modelContext, needsSensitive, type ModelContext, type PrivacyModel } from './models.js';
import { better, type NodeResult, type SearchResult } from './optimum.js';
import type { QuasiColumn, SensitiveColumn } from './recoding-input.js';

/**
 * The optimal recoding shared by disjoint parts of the records (partitioned recoding): one level per
 * quasi-identifier for every part, the classes formed and judged in each part on its own.
 *
 * What "satisfies" means here: in every part, each class of the part's records sharing their
 * generalized quasi-identifiers that fails a model is deleted; t-closeness compares a class with its
 * own part's distribution of sensitive values (all of the part's records, deleted ones included);
 * the node satisfies when the records deleted in all parts together are at most ⌊limit · n⌋.
 * The measure is that of the release with the part as a key that is never generalized: its
 * classes are the (part, generalized quasi-identifiers) classes, so Loss, entropy and precision
 * (sums over records) equal the global measure of the same records, and discernibility and AECS
 * count the parts' classes.
 */
export interface PartitionedSearchInput {
  /** The quasi-identifiers over all records (codes of every record). */
  readonly columns: readonly QuasiColumn[];
  readonly sensitive?: SensitiveColumn;
  readonly rowCount: number;
  /** The rows of each part, disjoint, covering 0 … rowCount − 1. */
  readonly parts: readonly Uint32Array[];
  readonly models: readonly PrivacyModel[];
  readonly suppressionLimit: number;
  readonly measure: Measure;
}

/** The classes of every part side by side, as one table (part p's classes after those of parts < p). */
class PartsTable implements ClassTable {
  readonly count: number;
  readonly sizes: Uint32Array;
  readonly hist: Uint32Array | null;
  readonly values: number;
  readonly width: number;
  private readonly columns: (Uint32Array | undefined)[];

  constructor(readonly parts: readonly ClassTable[]) {
    this.count = parts.reduce((s, t) => s + t.count, 0);
    this.values = parts[0]!.values;
    this.width = parts[0]!.width;
    this.sizes = new Uint32Array(this.count);
    this.hist = parts[0]!.hist ? new Uint32Array(this.count * this.values) : null;
    let at = 0;
    for (const t of parts) {
      this.sizes.set(t.sizes, at);
      if (this.hist) this.hist.set(t.hist!, at * this.values);
      at += t.count;
    }
    this.columns = new Array(this.width);
  }

  column(j: number): Uint32Array {
    let out = this.columns[j];
    if (!out) {
      out = new Uint32Array(this.count);
      let at = 0;
      for (const t of this.parts) {
        out.set(t.column(j), at);
        at += t.count;
      }
      this.columns[j] = out;
    }
    return out;
  }
}

interface Engine {
  builders: ClassBuilder[];
  contexts: ModelContext[];
  check(table: PartsTable): NodeCheck;
}

function engine(input: PartitionedSearchInput, packed: boolean): Engine {
  if (input.models.length === 0) throw new RangeError('at least one privacy model is needed');
  if (input.models.some((m) => m.type === 'average-risk')) throw new RangeError('the average risk is not decided class by class; partitioned recoding does not take it');
  if (input.models.some(needsSensitive) && !input.sensitive) throw new RangeError('ℓ-diversity and t-closeness need a sensitive column');
  if (!(input.suppressionLimit >= 0 && input.suppressionLimit <= 1)) throw new RangeError('the suppression limit is a share in [0, 1]');
  if (input.parts.reduce((s, p) => s + p.length, 0) !== input.rowCount) throw new RangeError('the parts must cover the records');
  const limit = maxSuppressed(input.suppressionLimit, input.rowCount);
  const hist = input.models.some(needsSensitive) ? input.sensitive : undefined;
  const builders: ClassBuilder[] = [];
  const contexts: ModelContext[] = [];
  for (const rows of input.parts) {
    const columns = input.columns.map((c) => ({ ...c, codes: Uint32Array.from(rows, (r) => c.codes[r]!) }));
    const sensitive = input.sensitive ? { ...input.sensitive, codes: Uint32Array.from(rows, (r) => input.sensitive!.codes[r]!) } : undefined;
    builders.push(new ClassBuilder(columns, hist ? sensitive : undefined, rows.length, packed ? keyLayout(columns) : undefined));
    // The part's own distribution: t-closeness compares a class with its part.
    contexts.push(modelContext(sensitive, rows.length));
  }
  const check = (table: PartsTable): NodeCheck => {
    const suppressed = new Uint8Array(table.count);
    let suppressedRecords = 0;
    let at = 0;
    table.parts.forEach((t, p) => {
      // Per part every failing class goes; the limit applies to the sum, below.
      const part = checkNode(t, input.models, contexts[p]!, Number.POSITIVE_INFINITY);
      suppressed.set(part.suppressed, at);
      suppressedRecords += part.suppressedRecords;
      at += t.count;
    });
    return { suppressed, suppressedRecords, satisfies: suppressedRecords <= limit };
  };
  return { builders, contexts, check };
}

/** The classes of every part at a node, from the records. */
export function partsAt(input: PartitionedSearchInput, node: readonly number[]): { table: PartsTable; check: NodeCheck } {
  const e = engine(input, true);
  const table = new PartsTable(e.builders.map((b) => b.fromRecords(node)));
  return { table, check: e.check(table) };
}

/**
 * The optimal shared recoding, visited bottom-up as global recoding's (visitBottomUp), each part's
 * classes rolled up from its parent node's.
 *
 * Pruning by the measure's lower bound (the measure with nothing suppressed, which grows with every
 * level) holds for any model: it is a property of the measure. Monotonicity is used only where it
 * holds per part:
 * - k-anonymity and distinct ℓ-diversity are monotone with suppression per part: a class of a
 *   generalization is a union of the part's classes below it, and a union containing a class that
 *   meets k (size adds) or ℓ (distinct values unite) meets it too; so every record the
 *   generalization deletes in a part was deleted below, each part's deleted count cannot rise, nor
 *   their sum, and a satisfying node's generalizations all satisfy. Then the subtrees pruned below
 *   a satisfying root are counted as satisfying, and above a node that deletes nothing in any part
 *   the checks are skipped (exact integer counts).
 * - t-closeness (against each part's distribution) is not: a class that meets t merged with one
 *   that fails can fail, so more records can be deleted higher up. Its nodes are always checked and
 *   the satisfying count becomes "at least" when a subtree is pruned.
 */
export function optimalPartitionedRecoding(input: PartitionedSearchInput, options: { readonly prune?: boolean; readonly onProgress?: (fraction: number) => void; readonly maxWork?: number } = {}): SearchResult {
  const e = engine(input, true);
  const { columns, models, measure } = input;
  return visitBottomUp<PartsTable>({
    depths: columns.map((c) => c.depth),
    // Per part the same models are monotone as over one table (see above).
    monotony: monotonyOf(models),
    scoring: { measure, columns, tables: measureTables(columns, input.rowCount) },
    prune: options.prune ?? true,
    fromRecords: (node) => new PartsTable(e.builders.map((b) => b.fromRecords(node))),
    rollUp: (parent, node, j) => new PartsTable(parent.parts.map((t, p) => e.builders[p]!.rollUp(t, node, j))),
    check: e.check,
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.maxWork !== undefined ? { maxWork: options.maxWork } : {}),
  });
}

/** Every node evaluated from each part's records, no roll-up, no pruning: the tests' oracle. */
export function bruteForcePartitionedRecoding(input: PartitionedSearchInput): SearchResult & { readonly all: readonly (NodeResult & { readonly satisfies: boolean })[] } {
  const e = engine(input, false);
  const tables = measureTables(input.columns, input.rowCount);
  let best: NodeResult | undefined;
  const all = latticeNodesOf(input.columns.map((c) => c.depth)).map((node) => {
    const table = new PartsTable(e.builders.map((b) => b.fromRecords(node)));
    const check = e.check(table);
    const result = { node, measure: measureOf(input.measure, table, check.suppressed, node, input.columns, tables), suppressedRecords: check.suppressedRecords, satisfies: check.satisfies };
    if (check.satisfies && better(result, best)) best = result;
    return result;
  });
  return { optimum: best, nodes: all.length, evaluated: all.length, satisfying: all.filter((r) => r.satisfies).length, satisfyingExact: true, all };
}
