/**
 * Local suppression to k-anonymity with wildcards, as sdcMicro's `kAnon()` / `localSuppression()`
 * (sdcTools/sdcMicro, R/localSuppression.R `suppSubset`, src/calcSuppInds.cpp `cpp_calcSuppInds`,
 * R/freqCalc.r), for its defaults alpha = 1, no strata, no `combs`.
 *
 * A suppressed cell is a wildcard: it matches every value of its column. A record's frequency fk is
 * the number of records compatible with it (itself included): equal or wildcard in every
 * quasi-identifier. Compatibility is not transitive, so these are not equivalence classes; the
 * requirement is fk ≥ k for every record (sdcMicro's criterion).
 *
 * The greedy, step for step as `suppSubset` does it:
 * 1. compute fk of every record; the problem records are those with fk < k, in decreasing risk
 *    (1/fk, sdcMicro's `indivRisk` without weights), ties in record order (R's stable `order`);
 * 2. for each problem record in that order, without recomputing fk in between (sdcMicro recomputes
 *    after the pass, so a record another suppression has already repaired is still suppressed once):
 *    its distance to every record is the number of columns where both are non-wildcard and differ;
 *    the nearest records are those at the smallest positive distance; the first column in the order
 *    "least important first" where the problem record is not a wildcard and differs from a nearest
 *    record's non-wildcard value is suppressed (`cpp_calcSuppInds` then the `colIndsSorted` loop);
 *    a problem record that has become compatible with every record is left alone (sdcMicro stops
 *    with an error there: no record at a positive distance);
 * 3. repeat until every record has fk ≥ k.
 *
 * Each step suppresses one more cell and a record whose cells are all suppressed is compatible with
 * every record, so with k ≤ n it ends with every fk ≥ k. Suppressing a cell only adds
 * compatibilities, so fk never falls: records that meet k are never touched, and a record once
 * meeting k keeps meeting it. It is a heuristic: it does not find the fewest (weighted) cells in
 * general (test/local-suppression.test.ts compares it with a brute force).
 *
 * Where Custos differs from sdcMicro:
 * - a missing value is a value of its own here; sdcMicro treats it as a wildcard too (stricter here);
 * - sdcMicro's freqCalc does not count a record with every key suppressed for records without a
 *   suppressed key (`addAllNAtoKeys = FALSE`); here every compatible record counts, which is what
 *   sdcMicro documents ("a missing value stands for any of the possible categories") and keeps fk
 *   monotone (more lenient here in that one case: such a record adds 1 to every fk);
 * - sdcMicro first cuts every group of identical keys larger than k down to k records, a speed-up
 *   that changes no choice (only whether fk reaches k matters, and distances are per distinct
 *   tuple); here the search runs over distinct tuples instead, and looks the nearest ones up in an
 *   index of the tuples by wildcard pattern (wildcard-index.ts) where sdcMicro compares each problem
 *   record with every record: the same choices, without the quadratic scan.
 */

import { MAX_INDEXED_COLUMNS, TupleStore, WILDCARD } from './wildcard-index.js';
import { formatCount } from '../../common/format/numbers.js';

/** The code of a suppressed cell in a column's code array. */
export { WILDCARD };

export interface LocalSuppressionInput {
  /** Per quasi-identifier, the code of every record (the released records, at the chosen levels). */
  readonly codes: readonly Uint32Array[];
  readonly rowCount: number;
  readonly k: number;
  /** Column indices, least important first: the order in which a problem record's cells are tried. */
  readonly order: readonly number[];
}

export interface LocalSuppressionResult {
  /** Per column, the codes after suppression (WILDCARD where a cell was suppressed). */
  readonly codes: readonly Uint32Array[];
  /** Cells suppressed in each column, in the input's column order. */
  readonly cellsPerColumn: readonly number[];
  readonly cells: number;
  /** Records with at least one suppressed cell. */
  readonly records: number;
  /** Passes of the greedy (sdcMicro's while loop). */
  readonly passes: number;
  /** fk of every record after suppression. */
  readonly frequencies: Uint32Array;
  /** Tuples compared (the scans) and index candidates looked at: what maxWork bounds. */
  readonly work: number;
}

/**
 * fk of every record with wildcard semantics: per distinct tuple, the records of the tuples compatible
 * with it, found by lookups in the wildcard groups (wildcard-index.ts), never by comparing pairs.
 */
export function wildcardFrequencies(codes: readonly Uint32Array[], rowCount: number): Uint32Array {
  if (codes.length > MAX_INDEXED_COLUMNS) return scannedFrequencies(codes, rowCount);
  return recordFrequencies(new TupleStore(codes, rowCount, codes.length), rowCount);
}

function recordFrequencies(store: TupleStore, rowCount: number): Uint32Array {
  const perTuple = store.frequencies();
  const out = new Uint32Array(rowCount);
  for (let r = 0; r < rowCount; r++) out[r] = perTuple[store.tupleOf[r]!]!;
  return out;
}

/** fk by comparing every tuple with every tuple holding a wildcard: tables of more columns than the index takes. */
function scannedFrequencies(codes: readonly Uint32Array[], rowCount: number): Uint32Array {
  const store = new TupleStore(codes, rowCount, codes.length);
  const m = codes.length;
  const flat = store.codes;
  const compatible = (a: number, b: number): boolean => {
    for (let j = 0; j < m; j++) {
      const x = flat[a * m + j]!;
      const y = flat[b * m + j]!;
      if (x !== y && x !== WILDCARD && y !== WILDCARD) return false;
    }
    return true;
  };
  const fk = Float64Array.from(store.count);
  for (let w = 0; w < store.size; w++) {
    if (!flat.subarray(w * m, w * m + m).includes(WILDCARD)) continue;
    for (let t = 0; t < store.size; t++) {
      if (t === w || !compatible(w, t)) continue;
      fk[t]! += store.count[w]!;
      if (!flat.subarray(t * m, t * m + m).includes(WILDCARD)) fk[w]! += store.count[t]!;
    }
  }
  const out = new Uint32Array(rowCount);
  for (let r = 0; r < rowCount; r++) out[r] = fk[store.tupleOf[r]!]!;
  return out;
}

/** What the greedy may spend, and whom it tells how far it is. */
export interface LocalSuppressionOptions {
  /** Called now and then with an estimate of the share of the work done (never decreasing). */
  readonly onProgress?: (fraction: number) => void;
  /** The most tuple comparisons the greedy may make (localSuppressionWorkLimit); beyond, it throws LocalSuppressionTooLarge. */
  readonly maxWork?: number;
}

/**
 * Local suppression's work would exceed its limit: the projection of a pass from the records it has
 * treated, or, without the index, records below k × distinct tuples before the pass starts.
 */
export class LocalSuppressionTooLarge extends RangeError {
  constructor(
    readonly work: number,
    readonly limit: number,
    readonly problems: number,
    readonly tuples: number,
    /** Whether work is projected from the records treated so far (the index) rather than counted before the pass. */
    readonly projected = false,
    /** The work done when refused: 0 for a refusal before the pass, at most the limit plus one check's records otherwise. */
    readonly spent = 0,
  ) {
    super(
      projected
        ? `local suppression would make about ${formatCount(work)} lookups and comparisons for ${formatCount(problems)} records below k among ${formatCount(tuples)} distinct tuples, more than its limit of ${formatCount(limit)}`
        : `local suppression would compare ${formatCount(problems)} records below k with ${formatCount(tuples)} distinct tuples (${formatCount(work)} comparisons or more), more than its limit of ${formatCount(limit)}`,
    );
    this.name = 'LocalSuppressionTooLarge';
  }
}

/**
 * The most work local suppression does: 1,000,000,000 index lookups and tuple comparisons. A
 * comparison costs 135–205 ns in a whole run (measured under load, 2026-11-27, before the index),
 * and a unit of the indexed search 120–171 ns (2026-11-28, load 15–20: 1M skewed records of 8
 * columns made 2.65·10^8 in 45 s of CPU), so the limit was about 3 minutes of CPU; with the index,
 * 1M records of 8 columns take 10^7–3·10^8. Since the indexes are built in bucket order (2026-11-29)
 * a unit costs less (2.62·10^8 in 22.6–26.1 s of CPU, 85–100 ns), so the limit is about 1.5 minutes.
 */
export const LOCAL_SUPPRESSION_WORK_LIMIT = 1_000_000_000;

/** Problem records between two progress reports and budget checks. */
const REPORT_EVERY = 32;

/**
 * How far a pass's projected work may exceed the limit before the pass is refused early. A pass
 * treats its rarest records first, and they cost the most (their nearest tuples lie at distance 2,
 * and the lookups return long chains), so the pass's average so far, extended to its remaining
 * records, overestimates: on skewed records (bench/bounded-work.ts) up to 6.7× the work the run then
 * did, 4.8× on 1M records (1.26·10^9 projected, 2.65·10^8 done). Refused at 1×, runs well within
 * the limit were refused. The limit itself is enforced at every check, so no run exceeds it.
 */
export const PROJECTION_MARGIN = 10;

/** sdcMicro's kAnon greedy (see the file's comment). Throws when k exceeds the records: no suppression reaches it. */
export function localSuppression(input: LocalSuppressionInput, options: LocalSuppressionOptions = {}): LocalSuppressionResult {
  const { rowCount, k, order } = input;
  const m = input.codes.length;
  if (!Number.isInteger(k) || k < 1) throw new RangeError('k is a whole number ≥ 1');
  if (rowCount > 0 && k > rowCount) throw new RangeError(`k = ${k} exceeds the ${rowCount} records: no local suppression reaches it`);
  if (order.length !== m || new Set(order).size !== m || order.some((j) => !(j >= 0 && j < m))) throw new RangeError('the importance order names every column once');
  const codes = input.codes.map((c) => Uint32Array.from(c));
  const tuples = new TupleStore(codes, rowCount, m);
  // Up to 30 columns the nearest tuples are looked up in the wildcard index; beyond, every tuple is compared.
  const indexed = m <= MAX_INDEXED_COLUMNS;
  const cellsPerColumn = new Array<number>(m).fill(0);
  const touched = new Uint8Array(rowCount);
  let passes = 0;
  let fk = indexed ? recordFrequencies(tuples, rowCount) : scannedFrequencies(codes, rowCount);
  const maxWork = options.maxWork ?? Infinity;
  // Work: tuples compared by the scans plus candidates looked at in the index (TupleStore.probes).
  let scanned = 0;
  const work = (): number => scanned + tuples.probes;
  let firstPassRecords = 0;
  let lastProblems = 0;
  for (;;) {
    const problems: number[] = [];
    for (let r = 0; r < rowCount; r++) if (fk[r]! < k) problems.push(r);
    if (problems.length === 0) break;
    passes++;
    if (passes === 1) firstPassRecords = problems.length;
    lastProblems = problems.length;
    // Without the index the pass compares every problem record with every tuple: refused before it starts.
    if (!indexed && work() + problems.length * tuples.size > maxWork) throw new LocalSuppressionTooLarge(work() + problems.length * tuples.size, maxWork, problems.length, tuples.size);
    const passStart = work();
    // Highest risk 1/fk first; equal risk in record order (Array.prototype.sort is stable).
    problems.sort((a, b) => fk[a]! - fk[b]!);
    for (let p = 0; p < problems.length; p++) {
      const i = problems[p]!;
      if (p % REPORT_EVERY === 0 && p > 0) {
        if (work() > maxWork) throw new LocalSuppressionTooLarge(work(), maxWork, problems.length, tuples.size, true, work());
        // The pass so far, extended to its remaining records: a job far too large stops early, not at
        // its limit. The extension overestimates (see PROJECTION_MARGIN), so it refuses only beyond the
        // margin; a job between the limit and the margin stops at the limit itself, the line above.
        const projected = work() + ((work() - passStart) / p) * (problems.length - p);
        if (projected > maxWork * PROJECTION_MARGIN) throw new LocalSuppressionTooLarge(Math.ceil(projected), maxWork, problems.length, tuples.size, true, work());
        // The first pass is nearly all of the work: later passes have the few records it left below k.
        if (passes === 1) options.onProgress?.(Math.min(0.99, (0.9 * p) / firstPassRecords));
      }
      const own = tuples.tupleOf[i]!;
      let column = indexed ? tuples.nearestColumn(own, order) : null;
      if (column === null) {
        scanned += tuples.size;
        column = columnToSuppress(tuples, m, own, order);
      }
      if (column < 0) continue;
      codes[column]![i] = WILDCARD;
      tuples.suppress(i, column);
      cellsPerColumn[column]!++;
      touched[i] = 1;
    }
    // Only this pass's records can still be below k (fk never falls, and every other record met k
    // when it was last counted): their fk alone decides the next pass, and the next pass's order.
    if (indexed) {
      const wanted = new Uint8Array(tuples.size);
      for (const r of problems) wanted[tuples.tupleOf[r]!] = 1;
      const perTuple = tuples.frequencies(wanted);
      for (const r of problems) fk[r] = perTuple[tuples.tupleOf[r]!]!;
    } else {
      fk = scannedFrequencies(codes, rowCount);
    }
    if (work() > maxWork) throw new LocalSuppressionTooLarge(work(), maxWork, problems.length, tuples.size, true, work());
  }
  // The other records' fk rose too: counted once more, all of them, for the release's risks.
  if (indexed && passes > 0) {
    fk = recordFrequencies(tuples, rowCount);
    if (work() > maxWork) throw new LocalSuppressionTooLarge(work(), maxWork, lastProblems, tuples.size, true, work());
  }
  options.onProgress?.(1);
  let records = 0;
  for (let r = 0; r < rowCount; r++) records += touched[r]!;
  return { codes, cellsPerColumn, cells: cellsPerColumn.reduce((a, b) => a + b, 0), records, passes, frequencies: fk, work: work() };
}

/**
 * sdcMicro's choice of the cell to suppress in a problem record (tuple `own`): the nearest records at
 * the smallest positive distance (`cpp_calcSuppInds`), then the first column, least important first,
 * where the record is not a wildcard and differs from a nearest record's non-wildcard value.
 */
function columnToSuppress(tuples: TupleStore, m: number, own: number, order: readonly number[]): number {
  const flat = tuples.codes;
  const count = tuples.count;
  const base = own * m;
  let minDist = m + 1;
  // differs[j]: some record at the current smallest distance differs from this one in column j (both non-wildcard).
  const differs = new Uint8Array(m);
  for (let t = 0; t < tuples.size; t++) {
    if (count[t] === 0 || t === own) continue;
    const at = t * m;
    let dist = 0;
    for (let j = 0; j < m && dist <= minDist; j++) {
      const x = flat[base + j]!;
      const y = flat[at + j]!;
      if (x !== y && x !== WILDCARD && y !== WILDCARD) dist++;
    }
    if (dist === 0 || dist > minDist) continue;
    if (dist < minDist) {
      minDist = dist;
      differs.fill(0);
    }
    for (let j = 0; j < m; j++) {
      const x = flat[base + j]!;
      const y = flat[at + j]!;
      if (x !== y && x !== WILDCARD && y !== WILDCARD) differs[j] = 1;
    }
  }
  for (const j of order) if (differs[j]) return j;
  // Every record is compatible with this one (an earlier suppression of this pass repaired it, fk = n ≥ k):
  // nothing to suppress. sdcMicro stops with "the length of the index vector is 0" here.
  return -1;
}

/**
 * The order of the columns, least important first: ascending weight (a column the person did not
 * weigh counts 1), ties as sdcMicro's default importance (more distinct values: less important),
 * then the columns' order.
 */
export function importanceOrder(weights: readonly number[], distinct: readonly number[]): number[] {
  return weights.map((_, j) => j).sort((a, b) => weights[a]! - weights[b]! || distinct[b]! - distinct[a]! || a - b);
}
