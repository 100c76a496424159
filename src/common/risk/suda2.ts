/**
 * Special uniques: minimal sample uniques (MSUs), SUDA scores and the DIS-SUDA score, with the
 * semantics of sdcMicro's `suda2` (original_scores = TRUE, its default since 5.0.2).
 *
 * Definitions (Elliot, Manning, Mayes, Gurd & Bane, "SUDA: a program for detecting special uniques",
 * 2005; Manning, Haglin & Keane, "A recursive search algorithm for statistical disclosure
 * assessment", Data Min. Knowl. Disc. 16:165–196, 2008):
 * - a record is a sample unique on a set S of key attributes when no other record has its values on S;
 * - S is a minimal sample unique (MSU) of the record when it is unique on S and on no proper subset
 *   of S. Uniqueness is inherited by supersets, so S is an MSU exactly when the record is unique on
 *   S and on none of the |S| sets S minus one attribute;
 * - a missing value (null; sdcMicro's `missing` code) is an ordinary value when records are compared
 *   (it equals only another missing value) but never part of an MSU: sdcMicro drops (attribute,
 *   missing) items before its search, so an MSU of a record only uses attributes it has a value on;
 * - SUDA score of a record: Σ over its MSUs of (M − |S|)!, M the number of key attributes. This is
 *   sdcMicro's weight with original_scores = TRUE (src/Suda2.h: the product (M−|S|)(M−|S|−1)…1); with
 *   fewer than 3 attributes sdcMicro pads the table with constant columns to 3, which changes M in
 *   the weights and in DIS's exponent, so M here is max(attributes, 3) as there;
 * - DIS-SUDA (Elliot et al.'s "using DIS to modify the classification of special uniques"): with U the
 *   records unique on all M attributes, P the records in classes of exactly two on all M attributes,
 *   π the DIS sampling fraction (sdcMicro's DisFraction, default 0.01), Dis = Uπ / (Uπ + P(1−π)),
 *   Q = 1 + (8 − M)/20, A = Σ_{score>0} score^(−Q):
 *     dis = 1 / (1 + (U/Dis − U) / (score^Q · A)) for score > 0, else 0;
 *   U/Dis − U = P(1−π)/π, computed in that form (no 0/0 when U = 0). sdcMicro computes Dis and π in
 *   single precision (float); Custos in double, so its figures differ from sdcMicro's in about the
 *   seventh significant digit.
 *   U here is every record unique on all attributes. sdcMicro's C++ counts a unique only when it is
 *   alone in its 16-bit hash bucket (in a shared bucket its "Unique !!" branch needs k equal to the
 *   bucket size, which k, the entries after the current one, never is), so where distinct records'
 *   hashes collide its U, and with it every DIS score, differs from this one.
 * Sources read (not copied): sdcMicro R/suda2.R and src/Suda2.h (github.com/sdcTools/sdcMicro).
 *
 * sdcMicro has no maximum MSU size (it searches all M); `maxSize` here stops the search at a size
 * (MSUs larger than it are not counted), the weights staying (M − |S|)!.
 *
 * Search: attribute subsets level by level (size 1, 2, …, maxSize). For each subset, the records are
 * grouped on it; a record unique on it is given the subset as an MSU unless one of its MSUs found at a
 * lower level is contained in it (then it is unique on a proper subset, and conversely every unique
 * proper subset contains an MSU of the record, found earlier). Only records unique on all attributes
 * can have an MSU, so only they are examined. Within a level the subsets come in lexicographic order
 * and the groupings of their prefixes are kept, so each subset costs about one pass over the records.
 * The bound records × (M + Σ_{k ≤ maxSize} k·C(M, k)) on the values read is computed before the
 * search starts and refused (SudaWorkLimitError) above the limit.
 */
import { classIdsOnAll, encodeKeys, MISSING_CODE, RefineScratch, refineClasses, type KeyCodes, type KeyValue } from './key-codes.js';

export class SudaWorkLimitError extends RangeError {
  constructor(
    readonly work: number,
    readonly limit: number,
  ) {
    super(`the MSU search needs ${work.toExponential(3)} value visits, more than the limit ${limit.toExponential(3)}: lower the maximum MSU size or use fewer key attributes`);
    this.name = 'SudaWorkLimitError';
  }
}

export interface SudaOptions {
  /** Largest MSU size searched, 1 … attributes (default: all attributes, as sdcMicro). */
  readonly maxSize?: number;
  /** π of DIS-SUDA, in (0, 1] (sdcMicro's DisFraction, default 0.01). */
  readonly disFraction?: number;
  /** Most value visits allowed (default 5·10⁸). */
  readonly workLimit?: number;
  /** Also return each record's MSUs as lists of attribute indices (for tests and explanations). */
  readonly listMsus?: boolean;
}

export interface SudaResult {
  readonly records: number;
  readonly attributes: number;
  readonly maxSize: number;
  /** msuCountsBySize[k − 1][r]: the number of MSUs of size k of record r. */
  readonly msuCountsBySize: readonly Int32Array[];
  readonly score: Float64Array;
  readonly disScore: Float64Array;
  /** U and P of DIS: records unique on all attributes, records in classes of two. */
  readonly uniques: number;
  readonly pairedRecords: number;
  /**
   * Per attribute, in percent: Σ over records and their MSUs containing the attribute of the MSU's
   * weight (M − |S|)!, over Σ score (sdcMicro's attribute_contributions). An MSU counts for each of
   * its attributes, so the percentages add up to more than 100 when MSUs have two or more attributes.
   */
  readonly attributeContributions: readonly number[];
  /** With `listMsus`: each record's MSUs, each an ascending list of attribute indices. */
  readonly msus?: readonly (readonly (readonly number[])[])[];
}

export function suda2(rows: readonly (readonly KeyValue[])[], options: SudaOptions = {}): SudaResult {
  return suda2OfKeys(encodeKeys(rows), options);
}

/** SUDA2 on key values already coded (a table's dictionary codes, say). */
export function suda2OfKeys(keys: KeyCodes, options: SudaOptions = {}): SudaResult {
  const n = keys.records;
  const m = keys.attributes;
  const maxSize = options.maxSize ?? Math.max(m, 1);
  if (!Number.isInteger(maxSize) || maxSize < 1 || maxSize > Math.max(m, 1)) throw new RangeError(`maximum MSU size ${maxSize} is not a whole number from 1 to ${m}`);
  const fraction = options.disFraction ?? 0.01;
  if (!(fraction > 0 && fraction <= 1)) throw new RangeError(`DIS sampling fraction ${fraction} is not in (0, 1]`);
  const limit = options.workLimit ?? 5e8;
  const work = searchWork(n, m, maxSize);
  if (work > limit) throw new SudaWorkLimitError(work, limit);

  const full = classIdsOnAll(keys);
  const fullSize = new Int32Array(full.classes);
  for (let r = 0; r < n; r++) fullSize[full.ids[r]!]!++;
  let uniques = 0;
  let pairedRecords = 0;
  const candidates: number[] = [];
  for (let r = 0; r < n; r++) {
    const size = fullSize[full.ids[r]!]!;
    if (size === 1) {
      uniques++;
      candidates.push(r);
    } else if (size === 2) pairedRecords++;
  }

  // Only a record unique on every attribute can have an MSU: a list for each of those (at 1M records,
  // a list per record was a million arrays held through the search, most of the helper's GC time).
  // Listed when a record gets its first MSU: most candidates get none, and a million empty lists
  // were a tenth of a second of the 1M-record profile, and its collector's work after.
  const found = new Map<number, number[][]>();
  const msuCountsBySize = Array.from({ length: maxSize }, () => new Int32Array(n));
  const member = new Uint8Array(m);
  // Made when a subset of two attributes is first searched (at 1M records the search stops before).
  let whole: Int32Array | undefined; // one class holding every record: the partition on no attribute
  let scratch: RefineScratch | undefined;
  let size: Int32Array | undefined;
  // Records per value of one attribute (index code + 1: missing first), for the subsets of size 1.
  const valueCount = new Int32Array(Math.max(0, ...keys.cardinality) + 1);
  for (let k = 1; k <= Math.min(maxSize, m) && candidates.length > 0; k++) {
    // The k-subsets in lexicographic order; partitions[j] groups the records on subset[0..j], so a
    // step that changes subset[i] regroups from depth i only (one attribute per subset on average).
    const subset = Array.from({ length: k }, (_, i) => i);
    const partitions = k === 1 ? [] : Array.from({ length: k }, () => new Int32Array(n));
    const classes = new Array<number>(k).fill(0);
    let changed = 0;
    for (;;) {
      let ids: Int32Array;
      if (k === 1) {
        // One attribute: a record's class is its value (missing its own value, code −1 → 0), so the
        // value's count is its class size, with no regrouping (at 1M records the search stops at
        // k = 1, and this is most of its work).
        ids = keys.codes[subset[0]!]!;
        valueCount.fill(0);
        for (let r = 0; r < n; r++) valueCount[ids[r]! + 1]!++;
      } else {
        whole ??= new Int32Array(n);
        scratch ??= new RefineScratch(n);
        size ??= new Int32Array(n);
        for (let j = changed; j < k; j++) {
          classes[j] = refineClasses(keys, subset[j]!, j === 0 ? whole : partitions[j - 1]!, j === 0 ? (n === 0 ? 0 : 1) : classes[j - 1]!, partitions[j]!, scratch);
        }
        ids = partitions[k - 1]!;
        size.fill(0, 0, classes[k - 1]);
        for (let r = 0; r < n; r++) size[ids[r]!]!++;
      }
      const sizes = k === 1 ? valueCount : size!;
      const shift = k === 1 ? 1 : 0;
      member.fill(0);
      for (const a of subset) member[a] = 1;
      for (const r of candidates) {
        if (sizes[ids[r]! + shift] !== 1) continue;
        if (subset.some((a) => keys.codes[a]![r] === MISSING_CODE)) continue;
        const own = found.get(r);
        if (own?.some((msu) => msu.every((a) => member[a] === 1))) continue;
        if (own) own.push(subset.slice());
        else found.set(r, [subset.slice()]);
        msuCountsBySize[k - 1]![r]!++;
      }
      let i = k - 1;
      while (i >= 0 && subset[i] === m - k + i) i--;
      if (i < 0) break;
      subset[i]!++;
      for (let j = i + 1; j < k; j++) subset[j] = subset[j - 1]! + 1;
      changed = i;
    }
  }

  const weighted = Math.max(m, 3);
  const weight = Array.from({ length: maxSize }, (_, i) => factorial(weighted - (i + 1)));
  const score = new Float64Array(n);
  for (let r = 0; r < n; r++) {
    let s = 0;
    for (let k = 1; k <= maxSize; k++) s += msuCountsBySize[k - 1]![r]! * weight[k - 1]!;
    score[r] = s;
  }
  const disScore = disScores(score, uniques, pairedRecords, fraction, weighted);
  const contribution = new Array<number>(m).fill(0);
  let total = 0;
  for (let r = 0; r < n; r++) total += score[r]!;
  // The records with MSUs in ascending order (as candidates are), so each sum is added in the same order.
  for (const r of candidates) for (const msu of found.get(r) ?? []) for (const a of msu) contribution[a]! += weight[msu.length - 1]!;
  const attributeContributions = contribution.map((c) => (total > 0 ? (100 * c) / total : 0));
  const result: SudaResult = { records: n, attributes: m, maxSize, msuCountsBySize, score, disScore, uniques, pairedRecords, attributeContributions };
  return options.listMsus === true ? { ...result, msus: Array.from({ length: n }, (_, r) => found.get(r) ?? []) } : result;
}

/** records × (M + Σ_{k ≤ maxSize} k · C(M, k)): at most the values read while grouping (the full key, then every subset from scratch). */
export function searchWork(records: number, attributes: number, maxSize: number): number {
  let total = records * attributes; // the grouping on all attributes
  let choose = 1;
  for (let k = 1; k <= maxSize; k++) {
    choose = (choose * (attributes - k + 1)) / k;
    total += records * k * choose;
  }
  return total;
}

function disScores(score: Float64Array, uniques: number, paired: number, fraction: number, attributes: number): Float64Array {
  const q = 1 + (8 - attributes) / 20;
  let adjustment = 0;
  for (const s of score) if (s > 0) adjustment += Math.pow(s, -q);
  // U / Dis − U with Dis = Uπ / (Uπ + P(1 − π)).
  const excess = (paired * (1 - fraction)) / fraction;
  const dis = new Float64Array(score.length);
  for (let r = 0; r < score.length; r++) {
    const s = score[r]!;
    if (s > 0) dis[r] = 1 / (1 + excess / (Math.pow(s, q) * adjustment));
  }
  return dis;
}

function factorial(x: number): number {
  let f = 1;
  for (let i = 2; i <= x; i++) f *= i;
  return f;
}
