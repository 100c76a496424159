import type { ReleasedColumn, ReleasedRecords } from '../compare/released-records.js';
import { SeededTestRandomSource } from '../random/source.js';
import { randomPermutation } from '../random/draws.js';
import type { Column, Table } from '../table/table.js';
import type { AnalysisReport, ClassifierReport, ContingencyReport } from './analysis-model.js';
import { hellinger, margins, totalVariation } from './contingency.js';
import { addRecord, emptyCounts, MISSING_BIN, predict, subtractCounts, trainNaiveBayes, type NaiveBayesCounts } from './naive-bayes.js';
import { valueBins, type ValueBins } from './value-bins.js';

/**
 * Analysis-based utility: what an analyst fitting a model or cross-tabulating two columns gets from
 * the release, against the same done on the input. Both read the release in the input's values, as
 * the comparison's common pool does (src/common/compare/released-records.ts): a released code counts
 * toward each input value by a weight (1 as collected, spread uniformly over what a generalized value
 * covers, randomized response's unbiased estimator, a bucket's share); a record counts toward a
 * (value, value) cell by the product of its two weights. So a release of any kind gives, estimated,
 * the two-way tables both analyses need, and no released record has to be matched to an input record.
 *
 * - Classifier: naive Bayes (naive-bayes.ts) of the target on every other analysed column, trained
 *   once on the input's tables and once on the release's, each scored on every input record whose
 *   target is present. The release is made from every record, so none can be held out of it; the
 *   input's model is trained on the same records, which makes the two accuracies comparable (equal
 *   when the release is the input). The input model's 5-fold cross-validated accuracy (folds from a
 *   fixed-seed permutation: the same folds every run) and the majority class's share are given beside,
 *   to show how much of the accuracy is fitting the records themselves.
 * - Contingency tables: per pair, the input's table and the release's, the total variation and
 *   Hellinger distances between them as distributions (contingency.ts), and each margin's total variation.
 */

export const FOLDS = 5;
/** The folds' permutation seed: fixed, so the same input gives the same folds (the split is not a protection). */
export const FOLD_SEED = 0x5eed_f01d;
/** A table is shown cell by cell up to this many cells; its distances are given whatever its size. */
export const MAX_SHOWN_CELLS = 144;

export const LEARNER = 'categorical naive Bayes with Laplace smoothing (α = 1); ties to the first category';
export const PROTOCOL =
  'each model is scored on every input record whose target is present: the release is made from every record, so none can be held out of it, and the input model is trained on the same records so the two compare like with like ' +
  `(equal when the release is the input); the input model's ${FOLDS}-fold cross-validation (fixed-seed folds) and the majority class are given beside`;

export interface AnalysisInput {
  readonly truth: Table;
  /** The columns analysed (those the release may hold), in the order of `released.columns`. */
  readonly columns: readonly Column[];
  readonly released: ReleasedRecords;
  /** How the release is read, in words. */
  readonly reading: string;
  readonly target?: string;
  readonly pairs: readonly (readonly [string, string])[];
}

/** One analysed column: its categories, and the release's weight toward each of them by released code. */
interface Analysed {
  readonly column: Column;
  readonly bins: ValueBins;
  readonly released: ReleasedColumn;
  /** weight[code · categories + b]: how much a record released with `code` counts toward category b. */
  readonly weight: Float64Array;
}

function analysed(column: Column, bins: ValueBins, released: ReleasedColumn): Analysed {
  const B = bins.labels.length;
  const weight = new Float64Array(released.codeCount * B);
  for (let x = 1; x < column.dictionary.length; x++) {
    const b = bins.binOf[x]!;
    if (b < 0) continue;
    const w = released.weights(x);
    const support = released.support(x);
    if (support) for (const c of support) weight[c * B + b]! += w[c]!;
    else for (let c = 0; c < released.codeCount; c++) weight[c * B + b]! += w[c]!;
  }
  return { column, bins, released, weight };
}

/** The release's estimated table of a (rows) by b (cols), row by row, in records of the input (the sample's scale applied). */
function releasedTable(a: Analysed, b: Analysed, scale: number): Float64Array {
  const A = a.bins.labels.length;
  const B = b.bins.labels.length;
  const width = b.released.codeCount;
  const pairs = pairCounts(a.released.codes, b.released.codes, width, a.released.codeCount * width);
  const out = new Float64Array(A * B);
  for (const [key, records] of pairs) {
    const codeA = Math.floor(key / width);
    const codeB = key - codeA * width;
    for (let i = 0; i < A; i++) {
      const wa = a.weight[codeA * A + i]!;
      if (wa === 0) continue;
      for (let j = 0; j < B; j++) out[i * B + j]! += records * scale * wa * b.weight[codeB * B + j]!;
    }
  }
  return out;
}

/** Pairs of a dense table's cells at most: beyond, a map holds only the pairs met. */
const DENSE_PAIRS = 1 << 22;

/**
 * How many records carry each (code a, code b), keyed a·width + b, in the order the pairs are first
 * met: the sums above add in that order, so the figures do not depend on which way they were counted.
 */
export function pairCounts(ca: Uint32Array, cb: Uint32Array, width: number, possible: number, denseLimit = DENSE_PAIRS): Iterable<[number, number]> {
  if (possible > denseLimit) {
    const pairs = new Map<number, number>();
    for (let r = 0; r < ca.length; r++) {
      const key = ca[r]! * width + cb[r]!;
      pairs.set(key, (pairs.get(key) ?? 0) + 1);
    }
    return pairs;
  }
  const counts = new Uint32Array(possible);
  const order: number[] = [];
  for (let r = 0; r < ca.length; r++) {
    const key = ca[r]! * width + cb[r]!;
    if (counts[key]!++ === 0) order.push(key);
  }
  return order.map((key): [number, number] => [key, counts[key]!]);
}

/**
 * The input's table of a (rows) by b (cols), in records. Where the two dictionaries' pairs of codes
 * are few enough to count in a dense table, the rows are counted by pair of codes (pairCounts, as
 * the release's table is) and the pairs then added into their cells: a row costs one increment of a
 * small integer, not two look-ups and a floating-point add (some 40 % less over a million rows).
 * Counts are integers, so the cells are the same either way and in any order.
 */
function inputTable(a: Analysed, b: Analysed, rows: number): Float64Array {
  const B = b.bins.labels.length;
  const out = new Float64Array(a.bins.labels.length * B);
  const binA = a.bins.binOf;
  const binB = b.bins.binOf;
  const codesA = a.column.codes;
  const codesB = b.column.codes;
  const width = b.column.dictionary.length;
  const possible = a.column.dictionary.length * width;
  if (possible > DENSE_PAIRS || possible > rows) {
    for (let r = 0; r < rows; r++) {
      const i = binA[codesA[r]!]!;
      const j = binB[codesB[r]!]!;
      if (i >= 0 && j >= 0) out[i * B + j]!++;
    }
    return out;
  }
  for (const [key, records] of pairCounts(codesA, codesB, width, possible)) {
    const codeA = Math.floor(key / width);
    const i = binA[codeA]!;
    const j = binB[key - codeA * width]!;
    if (i >= 0 && j >= 0) out[i * B + j]! += records;
  }
  return out;
}

export function analysisUtility(input: AnalysisInput): AnalysisReport {
  const byName = new Map<string, Analysed | { leftOut: string }>();
  input.columns.forEach((column, k) => {
    const binning = valueBins(column);
    byName.set(column.name, 'leftOut' in binning ? binning : analysed(column, binning.bins, input.released.columns[k]!));
  });
  const tables = input.pairs.map((pair) => contingency(pair, byName, input));
  return {
    reading: input.reading,
    ...(input.target !== undefined ? { classifier: classifier(input.target, byName, input) } : {}),
    tables,
  };
}

function contingency(pair: readonly [string, string], byName: ReadonlyMap<string, Analysed | { leftOut: string }>, input: AnalysisInput): ContingencyReport {
  const columns: [string, string] = [pair[0], pair[1]];
  const a = byName.get(pair[0]);
  const b = byName.get(pair[1]);
  if (!a || !b) return { columns, skipped: `${!a ? pair[0] : pair[1]} is not among the released columns` };
  if ('leftOut' in a) return { columns, skipped: `${pair[0]}: ${a.leftOut}` };
  if ('leftOut' in b) return { columns, skipped: `${pair[1]}: ${b.leftOut}` };
  const rows = a.bins.labels.length;
  const cols = b.bins.labels.length;
  const before = inputTable(a, b, input.truth.rowCount);
  const after = releasedTable(a, b, input.released.scale);
  const [rowsBefore, colsBefore] = margins(before, rows, cols);
  const [rowsAfter, colsAfter] = margins(after, rows, cols);
  return {
    columns,
    totalVariation: totalVariation(before, after),
    hellinger: hellinger(before, after),
    marginals: [totalVariation(rowsBefore, rowsAfter), totalVariation(colsBefore, colsAfter)],
    rows: [...a.bins.labels],
    cols: [...b.bins.labels],
    ...(rows * cols <= MAX_SHOWN_CELLS ? { cells: { input: [...before], release: [...after] } } : {}),
  };
}

function classifier(target: string, byName: ReadonlyMap<string, Analysed | { leftOut: string }>, input: AnalysisInput): ClassifierReport {
  const t = byName.get(target);
  if (!t) return { target, skipped: `${target} is not among the released columns` };
  if ('leftOut' in t) return { target, skipped: `the target has ${t.leftOut}` };
  const leftOut: { column: string; reason: string }[] = [];
  const features: Analysed[] = [];
  for (const [name, a] of byName) {
    if (name === target) continue;
    if ('leftOut' in a) leftOut.push({ column: name, reason: a.leftOut });
    else features.push(a);
  }
  const Y = t.bins.labels.length;
  const sizes = features.map((f) => f.bins.labels.length);
  const n = input.truth.rowCount;
  const x = new Int32Array(features.length);
  const featuresOf = (r: number): Int32Array => {
    features.forEach((f, j) => {
      const bin = f.bins.binOf[f.column.codes[r]!]!;
      x[j] = bin < 0 ? MISSING_BIN : bin;
    });
    return x;
  };
  const classOf = (r: number): number => t.bins.binOf[t.column.codes[r]!]!;

  // The input's counts, whole and per fold.
  const whole = emptyCounts(Y, sizes);
  const folds = Array.from({ length: FOLDS }, () => emptyCounts(Y, sizes));
  const foldOf = new Uint8Array(n);
  const order = randomPermutation(new SeededTestRandomSource(FOLD_SEED), n);
  order.forEach((record, position) => (foldOf[record] = position % FOLDS));
  let records = 0;
  for (let r = 0; r < n; r++) {
    const y = classOf(r);
    if (y < 0) continue;
    records++;
    const v = featuresOf(r);
    addRecord(whole, v, y);
    addRecord(folds[foldOf[r]!]!, v, y);
  }
  if (records === 0) return { target, skipped: 'every record\'s target is missing' };

  // The release's counts: each feature's table with the target, estimated.
  const scale = input.released.scale;
  const fromRelease: NaiveBayesCounts = {
    classes: Y,
    classCounts: classTotals(t, scale),
    features: features.map((f) => ({ values: f.bins.labels.length, counts: releasedTable(f, t, scale) })),
  };

  const inputModel = trainNaiveBayes(whole);
  const releaseModel = trainNaiveBayes(fromRelease);
  const foldModels = folds.map((fold) => trainNaiveBayes(subtractCounts(whole, fold)));
  let inputRight = 0;
  let releaseRight = 0;
  let foldRight = 0;
  for (let r = 0; r < n; r++) {
    const y = classOf(r);
    if (y < 0) continue;
    const v = featuresOf(r);
    if (predict(inputModel, v) === y) inputRight++;
    if (predict(releaseModel, v) === y) releaseRight++;
    if (predict(foldModels[foldOf[r]!]!, v) === y) foldRight++;
  }
  return {
    target,
    learner: LEARNER,
    protocol: PROTOCOL,
    features: features.map((f) => f.column.name),
    leftOut,
    classes: [...t.bins.labels],
    records,
    inputAccuracy: inputRight / records,
    releaseAccuracy: releaseRight / records,
    inputCrossValidated: foldRight / records,
    majority: Math.max(...whole.classCounts) / records,
  };
}

/** The release's estimated count of each target category. */
function classTotals(t: Analysed, scale: number): Float64Array {
  const Y = t.bins.labels.length;
  const perCode = new Float64Array(t.released.codeCount);
  for (const c of t.released.codes) perCode[c]!++;
  const out = new Float64Array(Y);
  for (let c = 0; c < perCode.length; c++) {
    if (perCode[c] === 0) continue;
    for (let y = 0; y < Y; y++) out[y]! += perCode[c]! * scale * t.weight[c * Y + y]!;
  }
  return out;
}
