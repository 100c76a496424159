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
 *   tuple); here the search runs over distinct tuples instead.
 */

/** The code of a suppressed cell in a column's code array. */
export const WILDCARD = 0xffffffff;

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
}

/** Whether records a and b are compatible: equal or a wildcard in every column. */
function compatible(codes: readonly Uint32Array[], a: number, b: number): boolean {
  for (const column of codes) {
    const x = column[a]!;
    const y = column[b]!;
    if (x !== y && x !== WILDCARD && y !== WILDCARD) return false;
  }
  return true;
}

/**
 * fk of every record with wildcard semantics. Records are first grouped by their exact tuple, so
 * the pairwise work is over distinct tuples (with their multiplicities), never over pairs of records.
 */
export function wildcardFrequencies(codes: readonly Uint32Array[], rowCount: number): Uint32Array {
  const { tupleOf, first, count } = distinctTuples(codes, rowCount);
  const tuples = first.length;
  const wild = new Uint8Array(tuples);
  for (let t = 0; t < tuples; t++) for (const column of codes) if (column[first[t]!] === WILDCARD) wild[t] = 1;
  const fk = new Float64Array(tuples);
  const withWildcards: number[] = [];
  for (let t = 0; t < tuples; t++) {
    fk[t] = count[t]!;
    if (wild[t]) withWildcards.push(t);
  }
  // Two tuples without wildcards are compatible only when equal: only pairs with a wildcard tuple add.
  for (const w of withWildcards) {
    for (let t = 0; t < tuples; t++) {
      if (t === w || !compatible(codes, first[w]!, first[t]!)) continue;
      fk[t]! += count[w]!;
      if (wild[t] === 0) fk[w]! += count[t]!;
    }
  }
  const out = new Uint32Array(rowCount);
  for (let r = 0; r < rowCount; r++) out[r] = fk[tupleOf[r]!]!;
  return out;
}

/** Records grouped by exact tuple: each record's tuple, a record of each tuple, and the tuple's count. */
function distinctTuples(codes: readonly Uint32Array[], rowCount: number): { tupleOf: Uint32Array; first: number[]; count: number[] } {
  const index = new Map<string, number>();
  const tupleOf = new Uint32Array(rowCount);
  const first: number[] = [];
  const count: number[] = [];
  const parts = new Array<number>(codes.length);
  for (let r = 0; r < rowCount; r++) {
    for (let j = 0; j < codes.length; j++) parts[j] = codes[j]![r]!;
    const key = parts.join(',');
    let t = index.get(key);
    if (t === undefined) {
      t = first.length;
      index.set(key, t);
      first.push(r);
      count.push(0);
    }
    count[t]!++;
    tupleOf[r] = t;
  }
  return { tupleOf, first, count };
}

/**
 * The records' distinct tuples, kept up to date as cells are suppressed: the nearest-record search
 * of each problem record runs over tuples (records with equal tuples are at equal distances), with
 * the tuples stored row-major for a tight loop.
 */
class Tuples {
  private flat: Uint32Array;
  readonly count: number[] = [];
  readonly tupleOf: Uint32Array;
  private readonly index = new Map<string, number>();

  constructor(
    codes: readonly Uint32Array[],
    rowCount: number,
    private readonly m: number,
  ) {
    this.flat = new Uint32Array(Math.max(16, rowCount) * m);
    this.tupleOf = new Uint32Array(rowCount);
    const tuple = new Array<number>(m);
    for (let r = 0; r < rowCount; r++) {
      for (let j = 0; j < m; j++) tuple[j] = codes[j]![r]!;
      const t = this.find(tuple);
      this.count[t]!++;
      this.tupleOf[r] = t;
    }
  }

  get size(): number {
    return this.count.length;
  }

  get codes(): Uint32Array {
    return this.flat;
  }

  private find(tuple: readonly number[]): number {
    const key = tuple.join(',');
    let t = this.index.get(key);
    if (t === undefined) {
      t = this.count.length;
      if ((t + 1) * this.m > this.flat.length) {
        const grown = new Uint32Array(this.flat.length * 2);
        grown.set(this.flat);
        this.flat = grown;
      }
      this.flat.set(tuple, t * this.m);
      this.count.push(0);
      this.index.set(key, t);
    }
    return t;
  }

  /** Record r's cell in column j becomes a wildcard: the record moves to that tuple. */
  suppress(r: number, j: number): void {
    const from = this.tupleOf[r]!;
    const tuple = Array.from(this.flat.subarray(from * this.m, from * this.m + this.m));
    tuple[j] = WILDCARD;
    const to = this.find(tuple);
    this.count[from]!--;
    this.count[to]!++;
    this.tupleOf[r] = to;
  }
}

/** What the greedy may spend, and whom it tells how far it is. */
export interface LocalSuppressionOptions {
  /** Called now and then with an estimate of the share of the work done (never decreasing). */
  readonly onProgress?: (fraction: number) => void;
  /** The most tuple comparisons the greedy may make (localSuppressionWorkLimit); beyond, it throws LocalSuppressionTooLarge. */
  readonly maxWork?: number;
}

/**
 * The greedy compares each record below k with every distinct tuple, pass after pass: about
 * (records below k) × (distinct tuples) comparisons in its first pass, which dominates.
 */
export class LocalSuppressionTooLarge extends RangeError {
  constructor(
    readonly work: number,
    readonly limit: number,
    readonly problems: number,
    readonly tuples: number,
  ) {
    super(`local suppression would compare ${problems.toLocaleString('en-US')} records below k with ${tuples.toLocaleString('en-US')} distinct tuples (${work.toLocaleString('en-US')} comparisons or more), more than its limit of ${limit.toLocaleString('en-US')}`);
    this.name = 'LocalSuppressionTooLarge';
  }
}

/**
 * The most tuple comparisons local suppression makes: 1,000,000,000. Measured on the 2-core
 * development machine under load (load average 13–15, 2026-11-27): a whole run costs 135–205 ns per
 * comparison of its first pass (20,000 and 40,000 records of 6 skewed columns at k = 5: 1.6e8 and
 * 2.5e8 comparisons, 32 s and 34 s), so a run at the limit takes about 2–3.5 minutes there, less
 * on a quiet machine; `npm run bench` times one near it.
 */
export const LOCAL_SUPPRESSION_WORK_LIMIT = 1_000_000_000;

/** Problem records between two progress reports and budget checks. */
const REPORT_EVERY = 32;

/** sdcMicro's kAnon greedy (see the file's comment). Throws when k exceeds the records: no suppression reaches it. */
export function localSuppression(input: LocalSuppressionInput, options: LocalSuppressionOptions = {}): LocalSuppressionResult {
  const { rowCount, k, order } = input;
  const m = input.codes.length;
  if (!Number.isInteger(k) || k < 1) throw new RangeError('k is a whole number ≥ 1');
  if (rowCount > 0 && k > rowCount) throw new RangeError(`k = ${k} exceeds the ${rowCount} records: no local suppression reaches it`);
  if (order.length !== m || new Set(order).size !== m || order.some((j) => !(j >= 0 && j < m))) throw new RangeError('the importance order names every column once');
  const codes = input.codes.map((c) => Uint32Array.from(c));
  const tuples = new Tuples(codes, rowCount, m);
  const cellsPerColumn = new Array<number>(m).fill(0);
  const touched = new Uint8Array(rowCount);
  let passes = 0;
  let fk = wildcardFrequencies(codes, rowCount);
  const maxWork = options.maxWork ?? Infinity;
  // Comparisons made, and the first pass's as the estimate of the whole (later passes have few records left).
  let work = 0;
  let estimate = 0;
  for (;;) {
    const problems: number[] = [];
    for (let r = 0; r < rowCount; r++) if (fk[r]! < k) problems.push(r);
    if (problems.length === 0) break;
    passes++;
    const passWork = problems.length * tuples.size;
    // Refused before the pass when it alone exceeds the limit, so a job too large stops at once.
    if (work + passWork > maxWork) throw new LocalSuppressionTooLarge(work + passWork, maxWork, problems.length, tuples.size);
    if (passes === 1) estimate = passWork * 1.25;
    // Highest risk 1/fk first; equal risk in record order (Array.prototype.sort is stable).
    problems.sort((a, b) => fk[a]! - fk[b]!);
    for (let p = 0; p < problems.length; p++) {
      const i = problems[p]!;
      if (p % REPORT_EVERY === 0) {
        if (work > maxWork) throw new LocalSuppressionTooLarge(work, maxWork, problems.length, tuples.size);
        options.onProgress?.(Math.min(0.99, work / estimate));
      }
      work += tuples.size;
      const column = columnToSuppress(tuples, m, tuples.tupleOf[i]!, order);
      if (column < 0) continue;
      codes[column]![i] = WILDCARD;
      tuples.suppress(i, column);
      cellsPerColumn[column]!++;
      touched[i] = 1;
    }
    fk = wildcardFrequencies(codes, rowCount);
  }
  options.onProgress?.(1);
  let records = 0;
  for (let r = 0; r < rowCount; r++) records += touched[r]!;
  return { codes, cellsPerColumn, cells: cellsPerColumn.reduce((a, b) => a + b, 0), records, passes, frequencies: fk };
}

/**
 * sdcMicro's choice of the cell to suppress in a problem record (tuple `own`): the nearest records at
 * the smallest positive distance (`cpp_calcSuppInds`), then the first column, least important first,
 * where the record is not a wildcard and differs from a nearest record's non-wildcard value.
 */
function columnToSuppress(tuples: Tuples, m: number, own: number, order: readonly number[]): number {
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
