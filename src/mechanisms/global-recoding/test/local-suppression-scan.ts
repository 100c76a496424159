// The greedy as it was before the wildcard index (session 15): every problem record compared with every
// distinct tuple. Kept for the tests only, as the reference the indexed greedy must equal exactly.
import { WILDCARD, type LocalSuppressionInput, type LocalSuppressionResult } from '../local-suppression.js';

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
export function scanFrequencies(codes: readonly Uint32Array[], rowCount: number): Uint32Array {
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

/** sdcMicro's kAnon greedy (see the file's comment). Throws when k exceeds the records: no suppression reaches it. */
export function scanLocalSuppression(input: LocalSuppressionInput): Omit<LocalSuppressionResult, 'work'> {
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
  let fk = scanFrequencies(codes, rowCount);
  for (;;) {
    const problems: number[] = [];
    for (let r = 0; r < rowCount; r++) if (fk[r]! < k) problems.push(r);
    if (problems.length === 0) break;
    passes++;
    // Highest risk 1/fk first; equal risk in record order (Array.prototype.sort is stable).
    problems.sort((a, b) => fk[a]! - fk[b]!);
    for (let p = 0; p < problems.length; p++) {
      const i = problems[p]!;
      const column = columnToSuppress(tuples, m, tuples.tupleOf[i]!, order);
      if (column < 0) continue;
      codes[column]![i] = WILDCARD;
      tuples.suppress(i, column);
      cellsPerColumn[column]!++;
      touched[i] = 1;
    }
    fk = scanFrequencies(codes, rowCount);
  }
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

