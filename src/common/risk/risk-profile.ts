/**
 * The risk profile of a table on its quasi-identifiers: every figure of this folder in one place, for
 * assess, the internal report and the wizard's risk preview (issue 36). From the records' values on the
 * quasi-identifiers, optional sampling weights and the population the job states:
 *
 * - population uniqueness: Pitman, Zayatz and SNB, and Dankar et al.'s choice among them (needs a population);
 * - k-map: the journalist's risk, each class standing for f / π people (needs a population);
 * - individual risk per record (Benedetti–Franconi, sdcMicro's measure_risk): with the file's sampling
 *   weights when it has them, else each record standing for 1/π people, else the file taken as the
 *   population (1 / class size); its histogram and the riskiest records;
 * - SUDA2: minimal sample uniques up to a size chosen so that the search's work bound stays under
 *   SUDA_WORK_LIMIT (the search grows as C(M, k) with M quasi-identifiers), special uniques, the DIS
 *   score and the distribution of SUDA scores; skipped, with the reason, when even size 1 is beyond it.
 *
 * Classes group equal values, a missing value ('' in a table's dictionary) counting as a value of its
 * own, as the disclosure review counts them; the individual risk and SUDA2 read a missing value as
 * sdcMicro does (it matches any value; it is never part of an MSU).
 */
import { adoptClassIdsOnAll, classIdsOnAll, MISSING_CODE, type KeyCodes } from './key-codes.js';
import { classSizeFrequencies, dankar, pitman, snb, zayatz, type PopulationUniquenessEstimate } from './population-uniqueness.js';
import { kMapEstimated } from './k-map.js';
import { individualRiskByClass, IndividualRiskInputError, IndividualRiskWorkLimitError } from './individual-risk.js';
import { searchWork, suda2OfKeys } from './suda2.js';

/** A quasi-identifier as a table holds it: a dictionary code per record, '' standing for a missing value. */
export interface ProfileColumn {
  readonly name: string;
  readonly codes: ArrayLike<number>;
  readonly dictionary: readonly string[];
}

export interface ProfileOptions {
  /** The sampling fraction of the records (records / population), as the job's review states it. */
  readonly fraction?: number;
  /** The file's sampling weights (an SPSS case weight): the individual risk sums them per class. */
  readonly weights?: { readonly column: string; readonly values: ArrayLike<number> };
  /** How many of the riskiest records to list (default RISKIEST_SHOWN). */
  readonly riskiest?: number;
  /** The most value visits SUDA2's search may need (default SUDA_WORK_LIMIT). */
  readonly sudaWorkLimit?: number;
}

/** Class ids of the records (dense, by first record) and how many classes there are. */
export interface KnownClasses {
  readonly ids: Int32Array;
  readonly count: number;
}

/** The riskiest records listed. */
export const RISKIEST_SHOWN = 10;
/**
 * The search's work bound allowed (searchWork): on Adult's 30,162 records, every MSU size of up to 7
 * quasi-identifiers, sizes up to 6 of 8 and up to 4 of 9; an assessment is redone as the custodian
 * changes settings, so the preview must stay quick.
 */
export const SUDA_WORK_LIMIT = 3e7;
/** The most records the per-record risk is computed for (three numbers a record). */
export const INDIVIDUAL_RECORD_LIMIT = 10_000_000;
/** Upper edges of the individual-risk histogram's bins; the last bin holds risk 1. */
export const RISK_BIN_EDGES = [0.001, 0.01, 0.05, 0.1, 0.2, 0.5, 1] as const;
/** sdcMicro's print of suda2 counts the records whose DIS score exceeds each of these. */
export const DIS_THRESHOLDS = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7] as const;
const SCORE_BINS = 10;

export interface EstimateFigure {
  readonly model: 'pitman' | 'zayatz' | 'snb';
  /** Absent: the model has no solution for these class sizes (ARX reports 0). */
  readonly populationUniques?: number;
  readonly populationUniqueShare?: number;
}

export interface RiskProfile {
  readonly quasiIdentifiers: readonly string[];
  readonly records: number;
  readonly classes: number;
  readonly sampleUniques: number;
  readonly population?: {
    readonly fraction: number;
    /** round(records / fraction), as ARX's population model. */
    readonly size: number;
    readonly estimates: readonly EstimateFigure[];
    /** Dankar et al.'s choice: the model it took ('none' with no sample uniques: 0 population uniques). */
    readonly dankar: { readonly model: 'pitman' | 'zayatz' | 'snb' | 'none'; readonly populationUniques?: number; readonly populationUniqueShare?: number };
  };
  readonly kMap?: { readonly k: number; readonly highest: number; readonly average: number; readonly recordsAtHighest: number };
  readonly individual: IndividualFigures | { readonly skipped: string };
  readonly suda: SudaFigures | { readonly skipped: string };
}

export interface IndividualFigures {
  /** What a record stands for: its class's weights, 1/π people each, or itself (the file is the population). */
  readonly basis: 'weights' | 'sampling-fraction' | 'population';
  readonly weightColumn?: string;
  readonly highest: number;
  /** Σ risk: expected re-identifications (sdcMicro global_risk_ER). */
  readonly expectedReidentifications: number;
  /** Mean risk (sdcMicro global_risk). */
  readonly globalRisk: number;
  readonly histogram: readonly { readonly from: number; readonly to: number; readonly records: number }[];
  readonly riskiest: readonly RiskyRecord[];
}

export interface RiskyRecord {
  /** 1 = the table's first record. */
  readonly record: number;
  /** Its quasi-identifier values, in the order of `quasiIdentifiers`. */
  readonly values: readonly string[];
  /** fk: records sharing its values (a missing value matching any). */
  readonly classSize: number;
  /** Fk: the sum of their weights, the estimated people sharing them. */
  readonly weightSum: number;
  readonly risk: number;
}

export interface SudaFigures {
  /** MSUs were searched up to this size (of `attributes`): larger ones are not counted. */
  readonly maxSize: number;
  readonly attributes: number;
  /** Records with an MSU smaller than all the quasi-identifiers: unique on a subset of them. */
  readonly specialUniques: number;
  /** Records with an MSU (SUDA score > 0). */
  readonly recordsWithMsu: number;
  readonly msusBySize: readonly number[];
  readonly highestScore: number;
  /** Records with score 0, then at most SCORE_BINS bins of whole scores from … to (inclusive) up to the highest. */
  readonly scoreHistogram: readonly { readonly from: number; readonly to: number; readonly records: number }[];
  readonly disHighest: number;
  readonly disAbove: readonly { readonly threshold: number; readonly records: number }[];
  /** Per quasi-identifier, in percent (sdcMicro attribute_contributions). */
  readonly attributeContributions: readonly number[];
}

/**
 * The profile of the records' values on `columns`. `known`: the records' classes on every one of
 * them, when the caller has them (a run's disclosure review groups the same released table): equal
 * ids exactly for equal codes ('' a value of its own), numbered by first record as classIds does,
 * so the profile is the same as without them.
 */
export function riskProfile(columns: readonly ProfileColumn[], records: number, options: ProfileOptions = {}, known?: KnownClasses): RiskProfile {
  const keys = keyCodesOf(columns, records);
  if (known) adoptClassIdsOnAll(keys, { ids: known.ids, classes: known.count });
  const { ids, classes } = classIdsOnAll(keys);
  const sizes = new Int32Array(classes);
  for (let r = 0; r < records; r++) sizes[ids[r]!]!++;
  let sampleUniques = 0;
  for (const s of sizes) if (s === 1) sampleUniques++;
  const fraction = options.fraction;
  if (fraction !== undefined && !(fraction > 0 && fraction <= 1)) throw new RangeError(`sampling fraction ${fraction} is not in (0, 1]`);
  const classSizes = Array.from(sizes);
  return {
    quasiIdentifiers: columns.map((c) => c.name),
    records,
    classes,
    sampleUniques,
    ...(fraction !== undefined && records > 0 ? { population: populationFigures(classSizes, fraction, records), kMap: kMapFigures(classSizes, fraction) } : {}),
    individual: individualFigures(keys, columns, options, sizes),
    suda: sudaFigures(keys, options.sudaWorkLimit ?? SUDA_WORK_LIMIT),
  };
}

/**
 * The table's codes as key codes: '' (missing) as MISSING_CODE, every other code as it is. A column
 * no record of which is missing is used in place (a view of its codes), so a large table is not copied.
 */
function keyCodesOf(columns: readonly ProfileColumn[], records: number): KeyCodes {
  let noneMissing = true;
  const codes = columns.map((c) => {
    const missing = c.dictionary.indexOf('');
    if (c.codes instanceof Uint32Array && c.codes.length === records && c.dictionary.length < 2 ** 31 && (missing === -1 || !c.codes.includes(missing))) {
      return new Int32Array(c.codes.buffer, c.codes.byteOffset, records);
    }
    const out = new Int32Array(records);
    for (let r = 0; r < records; r++) {
      const code = c.codes[r]!;
      out[r] = code === missing ? MISSING_CODE : code;
    }
    // Only a column whose empty code some record shows (or that is not a plain code array) can hold a missing code.
    noneMissing = false;
    return out;
  });
  return { records, attributes: columns.length, codes, cardinality: columns.map((c) => c.dictionary.length), noneMissing };
}

function populationFigures(classSizes: readonly number[], fraction: number, records: number): NonNullable<RiskProfile['population']> {
  const frequencies = classSizeFrequencies(classSizes);
  const figure = (e: PopulationUniquenessEstimate) => (e.populationUniques !== null ? { populationUniques: e.populationUniques, populationUniqueShare: e.populationUniqueShare! } : {});
  const choice = dankar(frequencies, fraction);
  return {
    fraction,
    size: Math.round(records / fraction),
    estimates: [pitman, zayatz, snb].map((model) => {
      const e = model(frequencies, fraction);
      return { model: e.model as EstimateFigure['model'], ...figure(e) };
    }),
    dankar: { model: choice.source, ...figure(choice) },
  };
}

function kMapFigures(classSizes: readonly number[], fraction: number): NonNullable<RiskProfile['kMap']> {
  const k = kMapEstimated(classSizes, fraction);
  return { k: k.k, highest: k.journalistHighest, average: k.journalistAverage, recordsAtHighest: k.recordsAtHighestRisk };
}

/** `sizes`: the records of each class of classIdsOnAll(keys), the classes individual risk is computed by. */
function individualFigures(keys: KeyCodes, columns: readonly ProfileColumn[], options: ProfileOptions, sizes: Int32Array): RiskProfile['individual'] {
  if (keys.records > INDIVIDUAL_RECORD_LIMIT) return { skipped: `${keys.records.toLocaleString('en-US')} records, more than the ${INDIVIDUAL_RECORD_LIMIT.toLocaleString('en-US')} the per-record risk is computed for` };
  const basis: IndividualFigures['basis'] = options.weights ? 'weights' : options.fraction !== undefined ? 'sampling-fraction' : 'population';
  let result;
  try {
    result = individualRiskByClass(keys, options.weights ? { weights: options.weights.values } : options.fraction !== undefined ? { samplingFraction: options.fraction } : {});
  } catch (error) {
    if (error instanceof IndividualRiskWorkLimitError) return { skipped: `with missing values every pair of distinct key patterns is compared, ${error.work.toExponential(2)} pairs here, more than ${error.limit.toExponential(0)}` };
    if (error instanceof IndividualRiskInputError) return { skipped: options.weights ? `the weights of ${options.weights.column}: ${error.message}` : error.message };
    throw error;
  }
  const { ids, fkOf, FkOf, riskOf } = result;
  const n = keys.records;
  // By class (every class has a record): each class's records fall into its risk's bin.
  const counts = new Array<number>(RISK_BIN_EDGES.length).fill(0);
  let highest = 0;
  for (let c = 0; c < riskOf.length; c++) {
    const x = riskOf[c]!;
    if (x > highest) highest = x;
    // The first bin whose upper edge is above x; the last one holds the rest.
    let bin = 0;
    while (bin < RISK_BIN_EDGES.length - 1 && !(x < RISK_BIN_EDGES[bin]!)) bin++;
    counts[bin]! += sizes[c]!;
  }
  const histogram = counts.map((records, i) => ({ from: i === 0 ? 0 : RISK_BIN_EDGES[i - 1]!, to: RISK_BIN_EDGES[i]!, records }));
  // The riskiest records, ties in record order: a stable sort of the indices by risk.
  const shown = options.riskiest ?? RISKIEST_SHOWN;
  const order = topIndices(ids, riskOf, n, shown);
  const riskiest = order.map((r) => ({
    record: r + 1,
    values: columns.map((c) => c.dictionary[c.codes[r]!]!),
    classSize: fkOf[ids[r]!]!,
    weightSum: FkOf[ids[r]!]!,
    risk: riskOf[ids[r]!]!,
  }));
  return {
    basis,
    ...(options.weights ? { weightColumn: options.weights.column } : {}),
    highest,
    expectedReidentifications: result.expectedReidentifications,
    globalRisk: result.globalRisk,
    histogram,
    riskiest,
  };
}

/** The `count` records of largest risk (riskOf[ids[r]]), largest first, ties by record (one pass, a small sorted list). */
function topIndices(ids: ArrayLike<number>, riskOf: Float64Array, records: number, count: number): number[] {
  const top: number[] = [];
  const riskAt = (r: number): number => riskOf[ids[r]!]!;
  for (let r = 0; r < records && count > 0; r++) {
    const x = riskAt(r);
    if (top.length === count && x <= riskAt(top[top.length - 1]!)) continue;
    let at = top.length;
    while (at > 0 && riskAt(top[at - 1]!) < x) at--;
    top.splice(at, 0, r);
    if (top.length > count) top.pop();
  }
  return top;
}

/** The largest MSU size whose work bound fits the limit; 0 when none does. */
export function sudaMaxSize(records: number, attributes: number, limit: number): number {
  let size = 0;
  while (size < attributes && searchWork(records, attributes, size + 1) <= limit) size++;
  return size;
}

function sudaFigures(keys: KeyCodes, limit: number): RiskProfile['suda'] {
  const m = keys.attributes;
  if (m === 0 || keys.records === 0) return { skipped: 'no quasi-identifier or no record' };
  const maxSize = sudaMaxSize(keys.records, m, limit);
  if (maxSize === 0) return { skipped: `even MSUs of one attribute need ${searchWork(keys.records, m, 1).toExponential(2)} value visits for ${keys.records.toLocaleString('en-US')} records, more than the limit ${limit.toExponential(0)}` };
  const s = suda2OfKeys(keys, { maxSize, workLimit: limit });
  const n = s.records;
  let specialUniques = 0;
  let recordsWithMsu = 0;
  let highestScore = 0;
  let disHighest = 0;
  const disAbove = DIS_THRESHOLDS.map(() => 0);
  for (let r = 0; r < n; r++) {
    const score = s.score[r]!;
    if (score > 0) recordsWithMsu++;
    if (score > highestScore) highestScore = score;
    // An MSU smaller than every quasi-identifier together: the record is unique on a part of its key.
    for (let k = 1; k <= s.maxSize && k < m; k++) {
      if (s.msuCountsBySize[k - 1]![r]! > 0) {
        specialUniques++;
        break;
      }
    }
    const dis = s.disScore[r]!;
    if (dis > disHighest) disHighest = dis;
    DIS_THRESHOLDS.forEach((t, i) => {
      if (dis > t) disAbove[i]!++;
    });
  }
  // Scores are whole numbers (sums of factorials): bins of whole scores from..to, at most SCORE_BINS of them.
  const width = Math.max(1, Math.ceil(highestScore / SCORE_BINS));
  const bins = new Array<number>(Math.ceil(highestScore / width)).fill(0);
  for (let r = 0; r < n; r++) {
    const score = s.score[r]!;
    if (score > 0) bins[Math.floor((score - 1) / width)]!++;
  }
  const scoreHistogram = [{ from: 0, to: 0, records: n - recordsWithMsu }, ...bins.map((records, i) => ({ from: i * width + 1, to: (i + 1) * width, records }))];
  return {
    maxSize: s.maxSize,
    attributes: m,
    specialUniques,
    recordsWithMsu,
    msusBySize: s.msuCountsBySize.map((counts) => counts.reduce((a, b) => a + b, 0)),
    highestScore,
    scoreHistogram,
    disHighest,
    disAbove: DIS_THRESHOLDS.map((threshold, i) => ({ threshold, records: disAbove[i]! })),
    attributeContributions: [...s.attributeContributions],
  };
}
