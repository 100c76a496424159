import type { ClassTable } from './class-table.js';
import type { QuasiColumn } from './recoding-input.js';

/**
 * The utility measures, each exactly as the ARX 3.9 class named beside it computes it with its
 * defaults (gsFactor 0.5, so generalization and suppression weigh 1 each; equal attribute weights).
 * Lower is better for every one. A suppressed record counts as its class: "outlier" classes.
 *
 * - loss           MetricMDNMLoss (Metric.createLossMetric(), or with a gsFactor and attribute weights: LossSettings): per column, Σ over released classes of
 *                  |C|·share(value) plus |C| for suppressed ones, normalized (x − n/|domain|)/(n − n/|domain|),
 *                  floored to 10 decimals, aggregated by ILMultiDimensionalGeometricMean: Π(v+1)^(1/m) − 1.
 * - discernibility MetricSDNMDiscernability: Σ released |C|² + Σ suppressed |C|·n.
 * - aecs           MetricSDAECS: n / (released classes + 1 if any record is suppressed).
 * - entropy        MetricMDNUNMEntropyPrecomputed (Metric.createEntropyMetric(), the non-monotonic
 *                  non-uniform entropy): per column −Σ_v c_v·log₂(c_v / c_g(v)) over the input's
 *                  values, plus −Σ_g s_g·log₂(s_g / S) over the suppressed records' generalized
 *                  values; floored to 10 decimals; summed over columns.
 * - precision      MetricMDNMPrecision (Metric.createPrecisionMetric()): per column
 *                  (released·level/height + suppressed)/n, arithmetic mean over columns.
 */
export const MEASURES = ['loss', 'discernibility', 'aecs', 'entropy', 'precision'] as const;

export type Measure = (typeof MEASURES)[number];

/** Each measure as the reports name it, with the ARX class it equals. */
export const MEASURE_TITLES: { readonly [M in Measure]: string } = {
  loss: 'Loss (ARX MetricMDNMLoss: generalization intensity, suppressed records fully generalized)',
  discernibility: 'discernibility (ARX MetricSDNMDiscernability)',
  aecs: 'average equivalence class size (ARX MetricSDAECS)',
  entropy: 'non-uniform entropy (ARX MetricMDNUNMEntropy)',
  precision: 'precision (ARX MetricMDNMPrecision)',
};


/** ARX's Metric.round: keep 10 decimals, floored, so sums in another order compare equal. */
const FACTOR = 1e10;
export const arxRound = (value: number): number => Math.floor(value * FACTOR) / FACTOR;

/**
 * ARX's two settings of the Loss (MetricMDNMLoss(gsFactor), ARXConfiguration.setAttributeWeight).
 * gsFactor in [0, 1]: below 0.5 a suppressed record costs its share plus sFactor = 2·gsFactor of the
 * rest (suppression is cheaper than full generalization), above it a released value costs
 * gFactor = 2 − 2·gsFactor of its share (generalization is cheaper); 0.5 weighs both 1, the default.
 * weights: one per measured column, ARX's default 0.5 for a column not named; divided by the largest
 * (all 1 when every weight is 0), each column's normalized Loss multiplied by its weight before the mean.
 */
export interface LossSettings {
  readonly gsFactor: number;
  readonly weights: readonly number[];
}

/** ARX's default attribute weight (ARXConfiguration.getAttributeWeight of a column not named). */
export const DEFAULT_ATTRIBUTE_WEIGHT = 0.5;

/** Per column and level, what the measures need from the input alone (no class structure). */
export interface MeasureTables {
  /** The records measured: the input's, or its research subset's. */
  readonly rowCount: number;
  /** The Loss's factors and normalized weights (1, 1 and all 1 by default: the sums are then ARX's default Loss to the bit). */
  readonly gFactor: number;
  readonly sFactor: number;
  readonly weights: Float64Array;
  /** shareTotal[j][l]: Σ over records of the share of their level-l value (Loss without suppression). */
  readonly shareTotal: readonly Float64Array[];
  /** entropyBase[j][l]: Σ_v c_v·log₂(c_v / c_g(v)) (≤ 0), the entropy measure without suppression. */
  readonly entropyBase: readonly Float64Array[];
}

/** `subset`: a research subset (δ-presence), whose records alone the measures count, as ARX's with one. */
export function measureTables(columns: readonly QuasiColumn[], rowCount: number, loss?: LossSettings, subset?: Uint8Array): MeasureTables {
  const gsFactor = loss?.gsFactor ?? 0.5;
  if (!(gsFactor >= 0 && gsFactor <= 1)) throw new RangeError('the generalization/suppression factor lies in [0, 1]');
  if (loss && loss.weights.length !== columns.length) throw new RangeError('one attribute weight per measured column');
  const weights = new Float64Array(columns.length).fill(1);
  const largest = loss ? Math.max(0, ...loss.weights) : 0;
  if (largest > 0) loss!.weights.forEach((w, j) => (weights[j] = w / largest));
  const shareTotal: Float64Array[] = [];
  const entropyBase: Float64Array[] = [];
  for (const column of columns) {
    const counts = new Float64Array(column.cardinality[0]!);
    for (let r = 0; r < rowCount; r++) counts[column.codes[r]!]! += subset ? subset[r]! : 1;
    const totals = new Float64Array(column.depth);
    const entropy = new Float64Array(column.depth);
    for (let level = 0; level < column.depth; level++) {
      const lift = column.lift[level]!;
      const generalized = new Float64Array(column.cardinality[level]!);
      for (let v = 0; v < counts.length; v++) generalized[lift[v]!]! += counts[v]!;
      let total = 0;
      let base = 0;
      for (let v = 0; v < counts.length; v++) {
        const a = counts[v]!;
        if (a === 0) continue;
        total += a * column.share[level]![lift[v]!]!;
        base += a * (Math.log(a / generalized[lift[v]!]!) / Math.LN2);
      }
      totals[level] = total;
      entropy[level] = base;
    }
    shareTotal.push(totals);
    entropyBase.push(entropy);
  }
  // ARX's MetricMDNMLoss constructor: exactly 1 and 1 at gsFactor 0.5.
  const sFactor = gsFactor < 0.5 ? 2 * gsFactor : 1;
  const gFactor = gsFactor <= 0.5 ? 1 : 1 - 2 * (gsFactor - 0.5);
  let records = rowCount;
  if (subset) {
    records = 0;
    for (let r = 0; r < rowCount; r++) records += subset[r]!;
  }
  return { rowCount: records, gFactor, sFactor, weights, shareTotal, entropyBase };
}

/** ARX's normalization of one column's Loss sum: from gFactor·n/|domain| (everything at level 0) to n. */
function normalizedLoss(sum: number, column: QuasiColumn, rowCount: number, gFactor: number): number {
  const min = (gFactor * rowCount) / column.domainSize;
  const max = rowCount;
  if (max - min <= 0) return 0;
  const result = (sum - min) / (max - min);
  return arxRound(result >= 0 ? result : 0);
}

/** ARX's ILMultiDimensionalGeometricMean: Π(v·w + 1)^(1/m) − 1. */
function geometricMean(values: readonly number[], weights: Float64Array): number {
  let result = 1;
  values.forEach((v, j) => (result *= Math.pow(v * weights[j]! + 1, 1 / values.length)));
  return result - 1;
}

function arithmeticMean(values: readonly number[]): number {
  let result = 0;
  for (const v of values) result += v;
  return result / values.length;
}

/** The measure of a node whose classes are `table`, suppressed[c] = 1 for the suppressed classes. */
export function measureOf(measure: Measure, table: ClassTable, suppressed: Uint8Array, node: readonly number[], columns: readonly QuasiColumn[], tables: MeasureTables): number {
  const n = tables.rowCount;
  switch (measure) {
    case 'loss': {
      const { gFactor, sFactor } = tables;
      return geometricMean(
        columns.map((column, j) => {
          const share = column.share[node[j]!]!;
          const codes = table.column(j);
          let sum = 0;
          for (let c = 0; c < table.count; c++) {
            const size = table.sizes[c]!;
            // As ARX sums it: a released class costs gFactor of its share, a suppressed one its share plus sFactor of the rest.
            const shared = size * share[codes[c]!]!;
            sum += !suppressed[c] ? shared * gFactor : sFactor === 1 ? size : shared + sFactor * (size - shared);
          }
          return normalizedLoss(sum, column, n, gFactor);
        }),
        tables.weights,
      );
    }
    case 'discernibility': {
      let dm = 0;
      for (let c = 0; c < table.count; c++) dm += suppressed[c] ? n * table.sizes[c]! : table.sizes[c]! * table.sizes[c]!;
      return dm;
    }
    case 'aecs': {
      let released = 0;
      let any = false;
      for (let c = 0; c < table.count; c++) {
        // A class of no subset record (δ-presence) is no class of the release.
        if (table.sizes[c] === 0) continue;
        if (suppressed[c]) any = true;
        else released++;
      }
      return n / (released + (any ? 1 : 0));
    }
    case 'entropy': {
      let sum = 0;
      columns.forEach((column, j) => {
        let value = tables.entropyBase[j]![node[j]!]!;
        const bySuppressed = new Map<number, number>();
        let total = 0;
        const codes = table.column(j);
        for (let c = 0; c < table.count; c++) {
          if (!suppressed[c]) continue;
          total += table.sizes[c]!;
          bySuppressed.set(codes[c]!, (bySuppressed.get(codes[c]!) ?? 0) + table.sizes[c]!);
        }
        for (const count of bySuppressed.values()) value += count * (Math.log(count / total) / Math.LN2);
        sum += arxRound(value === 0 ? value : -value);
      });
      return sum;
    }
    case 'precision': {
      let suppressedRecords = 0;
      for (let c = 0; c < table.count; c++) if (suppressed[c]) suppressedRecords += table.sizes[c]!;
      const released = n - suppressedRecords;
      return arithmeticMean(columns.map((column, j) => {
        const height = column.depth - 1;
        const value = height === 0 ? 0 : node[j]! / height;
        return (released * value + suppressedRecords) / n;
      }));
    }
  }
}

/** Measures whose lower bound needs the node's levels only, not its classes. */
export const boundFromLevels = (measure: Measure): boolean => measure === 'loss' || measure === 'entropy' || measure === 'precision';

/**
 * A lower bound of the measure at a node and at every generalization of it: the measure with
 * nothing suppressed (suppression only adds loss: a suppressed record's Loss, share + sFactor·(1 − share)
 * or 1, is at least a released one's gFactor·share), which grows with every level of every column.
 * Discernibility and AECS count classes, so they need the node's `table`.
 */
export function lowerBound(measure: Measure, node: readonly number[], columns: readonly QuasiColumn[], tables: MeasureTables, table: ClassTable | undefined): number {
  const n = tables.rowCount;
  switch (measure) {
    case 'loss':
      return geometricMean(columns.map((column, j) => normalizedLoss(tables.shareTotal[j]![node[j]!]! * tables.gFactor, column, n, tables.gFactor)), tables.weights);
    case 'entropy':
      return columns.reduce((sum, _c, j) => {
        const v = tables.entropyBase[j]![node[j]!]!;
        return sum + arxRound(v === 0 ? v : -v);
      }, 0);
    case 'precision':
      return arithmeticMean(columns.map((column, j) => (column.depth - 1 === 0 ? 0 : node[j]! / (column.depth - 1))));
    case 'discernibility': {
      if (!table) return n;
      let dm = 0;
      for (let c = 0; c < table.count; c++) dm += table.sizes[c]! * table.sizes[c]!;
      return dm;
    }
    case 'aecs':
      return table ? n / table.count : 1;
  }
}
