import { sortByCode } from '../../common/table/rows-by-code.js';
import { keyColumn, tupleIds } from '../../common/table/tuple-ids.js';
import { latticeSize, type LatticeColumn } from './lattice.js';
import { quantizedLoss, type ScoreRule } from './lattice-score.js';
import { DensePairIds, PairIds } from './pair-ids.js';

export interface LatticeScores {
  /** Per node in latticeNodes order: its score where `exact`, else an upper bound of it. */
  readonly score: Float64Array;
  readonly exact: Uint8Array;
  /** The largest score; no bound exceeds it. */
  readonly best: number;
}

/**
 * Scores of every node by roll-up over the distinct tuples of the sample, never
 * the records. Columns are fixed one at a time, widest first; the fixed columns
 * of a class are folded into one prefix id, so each step pairs a prefix with
 * one code, and classes that become identical are merged before the next
 * column. The work per node is about its number of classes.
 *
 * With `prune`, a branch whose nodes all score at least `margin` below the best
 * score found so far gets one upper bound instead (branch and bound). The bound: a node's
 * score is its no-suppression score Σ(unit − loss) minus a penalty Σ_C (|C| −
 * g(|C|))·(unit − loss_C); |C| − g(|C|) is subadditive, so merging each class of
 * the branch into its prefix class can only lower the penalty, and the columns
 * not yet fixed add at most their largest loss. Specific branches, where most
 * classes are small, are where the work is and where the bound bites.
 */
export function scoreLattice(rule: ScoreRule, input: readonly LatticeColumn[], sample: Uint32Array, options: { readonly prune?: { readonly margin: number }; readonly onProgress?: (fraction: number) => void } = {}): LatticeScores {
  const m = input.length;
  const total = latticeSize(input);
  const scores = new Float64Array(total);
  const exact = new Uint8Array(total);
  const order = input.map((_, j) => j).sort((a, b) => input[b]!.levels[0]!.dictionary.length - input[a]!.levels[0]!.dictionary.length);
  const cols = order.map((j) => input[j]!);
  // Position of a node in latticeNodes order: input column 0 is the most significant digit.
  const inputStride = new Array<number>(m);
  for (let j = m - 1, s = 1; j >= 0; j--) {
    inputStride[j] = s;
    s *= input[j]!.levels.length;
  }
  const stride = order.map((j) => inputStride[j]!);
  if (m === 0) return { score: scores, exact, best: 0 };

  const base = baseClasses(rule, cols, sample);
  const { B, weight0, codes0, lift, lost, singleCode, totalLost, suffix } = base;
  const table = new PairIds(Math.max(1, B));
  // Buffers per depth d for the classes handed to depth d + 1.
  const repOut = Array.from({ length: m }, () => new Uint32Array(B));
  const wtOut = Array.from({ length: m }, () => new Uint32Array(B));
  const preOut = Array.from({ length: m }, () => new Uint32Array(B));
  const prefixOfOut = Array.from({ length: m }, () => new Uint32Array(B));
  const preLost = Array.from({ length: m + 1 }, () => new Int32Array(Math.max(1, B)));
  const sizes = new Uint32Array(Math.max(1, B));
  const marks = new RunMerge(B);
  const dense = new DensePairIds(Math.max(1024, 4 * B));
  const identity = Uint32Array.from({ length: B }, (_, b) => b);
  const { k, slope, unit } = rule;
  const floor = (slope - 1) * k;
  // classCredit, inlined in the hot loops below.
  const credit = (size: number): number => (size >= k ? size : slope * size > floor ? slope * size - floor : 0);
  const everything = sample.length * unit;
  let best = -Infinity;
  // Nodes given a score or a bound so far: the share of the lattice done, reported every 4,096.
  let assigned = 0;
  const onProgress = options.onProgress;
  const assign = (): void => {
    if ((++assigned & 4095) === 0) onProgress?.(assigned / total);
  };

  /** Every node of the branch below depth d gets the same bound. */
  const boundBranch = (d: number, index: number, bound: number): void => {
    if (d === m) {
      scores[index] = bound;
      assign();
      return;
    }
    for (let level = 0; level < cols[d]!.levels.length; level++) boundBranch(d + 1, index + level * stride[d]!, bound);
  };

  /**
   * Depth d: n classes, distinct on (prefix over columns < d, level-0 tuple over
   * columns ≥ d), given by a representative base class r, a weight w and a prefix
   * id p < prefixCount whose quantized loss is preLost[d][p]; fixedLost is the
   * sample's loss on the columns < d.
   */
  const visit = (d: number, n: number, r: Uint32Array, w: Uint32Array, p: Uint32Array, prefixCount: number, index: number, fixedLost: number): void => {
    const codes = codes0[d]!;
    const pl = preLost[d]!;
    const outLost = preLost[d + 1]!;
    const levels = cols[d]!.levels;
    const leaf = d === m - 1;
    // Coarse levels first: their cheap, decent scores raise the bar for pruning early.
    for (let level = levels.length - 1; level >= 0; level--) {
      const up = lift[d]![level]!;
      const q = lost[d]![level]!;
      const at = index + level * stride[d]!;
      if (leaf && level === 0) {
        // The classes are final already.
        let score = 0;
        for (let g = 0; g < n; g++) score += credit(w[g]!) * (unit - pl[p[g]!]!);
        scores[at] = score;
        exact[at] = 1;
        if (score > best) best = score;
        assign();
        continue;
      }
      // Prefix ids for depth d + 1: the prefix itself when the level gives every value one code.
      let prefixOf: Uint32Array;
      let count: number;
      const only = singleCode[d]![level]!;
      // …and each new prefix's number of records, summed in the same pass.
      if (only >= 0) {
        prefixOf = p;
        count = prefixCount;
        const extra = q[only]!;
        for (let c = 0; c < count; c++) outLost[c] = pl[c]! + extra;
        sizes.fill(0, 0, count);
        for (let g = 0; g < n; g++) sizes[p[g]!]! += w[g]!;
      } else {
        prefixOf = prefixOfOut[d]!;
        const cardinality = levels[level]!.dictionary.length;
        // Two loops, so each call site sees one table class and stays inlined.
        if (prefixCount * cardinality <= dense.capacity) {
          dense.reset();
          for (let g = 0; g < n; g++) {
            const code = up[codes[r[g]!]!]!;
            const known = dense.count;
            const id = dense.id(p[g]!, code, cardinality);
            prefixOf[g] = id;
            if (id === known) {
              outLost[id] = pl[p[g]!]! + q[code]!;
              sizes[id] = 0;
            }
            sizes[id]! += w[g]!;
          }
          count = dense.count;
        } else {
          table.reset(n);
          for (let g = 0; g < n; g++) {
            const code = up[codes[r[g]!]!]!;
            const known = table.count;
            const id = table.id(p[g]!, code);
            prefixOf[g] = id;
            if (id === known) {
              outLost[id] = pl[p[g]!]! + q[code]!;
              sizes[id] = 0;
            }
            sizes[id]! += w[g]!;
          }
          count = table.count;
        }
      }
      if (leaf) {
        let score = 0;
        for (let c = 0; c < count; c++) score += credit(sizes[c]!) * (unit - outLost[c]!);
        scores[at] = score;
        exact[at] = 1;
        if (score > best) best = score;
        assign();
        continue;
      }
      const lostSoFar = fixedLost + totalLost[d]![level]!;
      if (options.prune && best > -Infinity) {
        const bound = branchBound(sizes, outLost, count, credit, unit, everything - lostSoFar, d + 1, base);
        if (bound <= best - options.prune.margin) {
          boundBranch(d + 1, at, bound);
          continue;
        }
      }
      if (level === 0) {
        // Fixing a column at level 0 merges nothing: (prefix, code, rest) is (prefix, suffix) again.
        visit(d + 1, n, r, w, prefixOf, count, at, lostSoFar);
        continue;
      }
      const nr = repOut[d]!;
      const nw = wtOut[d]!;
      const np = preOut[d]!;
      const groups = marks.merge(n, r, w, prefixOf, suffix[d + 1]!, nr, nw, np);
      visit(d + 1, groups, nr, nw, np, count, at, lostSoFar);
    }
  };
  visit(0, B, identity, weight0, new Uint32Array(B), 1, 0, 0);
  onProgress?.(1);
  return { score: scores, exact, best };
}

/** The sample's distinct tuples (base classes) in roll-up order, with every table the roll-up reads. */
interface BaseClasses {
  readonly B: number;
  readonly weight0: Uint32Array;
  /** Level-0 code of each base class per column. */
  readonly codes0: readonly Uint32Array[];
  /** lift[j][level]: level-0 code → the code at `level`. */
  readonly lift: readonly (readonly Uint32Array[])[];
  /** lost[j][level]: quantized loss per code. */
  readonly lost: readonly (readonly Int32Array[])[];
  readonly singleCode: readonly (readonly number[])[];
  readonly totalLost: readonly (readonly number[])[];
  readonly largestLost: readonly (readonly number[])[];
  /** suffix[j][b]: id of base class b's level-0 tuple over columns j … m−1. */
  readonly suffix: readonly Uint32Array[];
}

/**
 * The distinct tuples of the sample (base classes) sorted in lexicographic order of (column m−1,
 * …, column 0), so classes that agree on columns d … m−1 are adjacent for every d, and so are the
 * classes merged from them; with the per-column lifts, losses and suffix ids the roll-up reads.
 */
function baseClasses(rule: ScoreRule, cols: readonly LatticeColumn[], sample: Uint32Array): BaseClasses {
  const m = cols.length;
  const base = tupleIds(cols.map((c) => keyColumn(c.levels[0]!)), sample, sample.length);
  const B = base.count;
  const firstWeight = new Uint32Array(B);
  const firstRow = new Uint32Array(B);
  for (let i = 0; i < sample.length; i++) {
    const b = base.ids[i]!;
    if (firstWeight[b]!++ === 0) firstRow[b] = sample[i]!;
  }
  // Base classes in lexicographic order of (column m−1, …, column 0): classes that agree on
  // columns d … m−1 are then adjacent for every d, and so are the classes merged from them.
  // Least significant column first, each a stable counting sort.
  const firstCodes = cols.map((c) => Uint32Array.from(firstRow, (r) => c.levels[0]!.codes[r]!));
  let sorted: Uint32Array = Uint32Array.from({ length: B }, (_, b) => b);
  cols.forEach((c, j) => (sorted = sortByCode(firstCodes[j]!, c.levels[0]!.dictionary.length, sorted).order));
  const weight0 = Uint32Array.from(sorted, (b) => firstWeight[b]!);
  const repRow = Uint32Array.from(sorted, (b) => firstRow[b]!);
  const codes0 = firstCodes.map((codes) => Uint32Array.from(sorted, (b) => codes[b]!));
  const lift = cols.map((c, j) =>
    c.levels.map((level) => {
      const map = new Uint32Array(c.levels[0]!.dictionary.length);
      for (let b = 0; b < B; b++) map[codes0[j]![b]!] = level.codes[repRow[b]!]!;
      return map;
    }),
  );
  const lost = cols.map((c) => c.levels.map((level) => quantizedLoss(rule, level.loss)));
  // Per column and level: the one code it gives every sampled value (as "*" does) or −1,
  // the sample's total loss, and the largest loss of a sampled value.
  const singleCode = lift.map((levels, j) =>
    levels.map((up) => {
      const first = B > 0 ? up[codes0[j]![0]!]! : 0;
      for (let b = 1; b < B; b++) if (up[codes0[j]![b]!] !== first) return -1;
      return first;
    }),
  );
  const totalLost = lift.map((levels, j) => levels.map((up, l) => weight0.reduce((sum, w, b) => sum + w * lost[j]![l]![up[codes0[j]![b]!]!]!, 0)));
  const largestLost = lift.map((levels, j) => levels.map((up, l) => codes0[j]!.reduce((most, code) => Math.max(most, lost[j]![l]![up[code]!]!), 0)));
  // suffix[j][b]: id of base class b's level-0 tuple over columns j … m−1.
  const suffix: Uint32Array[] = new Array(m + 1);
  suffix[m] = new Uint32Array(B);
  let suffixCount = 1;
  for (let j = m - 1; j >= 0; j--) {
    const { ids, count } = tupleIds([{ codes: codes0[j]!, cardinality: cols[j]!.levels[0]!.dictionary.length }, { codes: suffix[j + 1]!, cardinality: suffixCount }], null, B);
    suffix[j] = ids;
    suffixCount = count;
  }

  return { B, weight0, codes0, lift, lost, singleCode, totalLost, largestLost, suffix };
}

/**
 * An upper bound of every node below a branch: the no-suppression score Σ(unit − loss) of the
 * classes so far minus their penalty Σ_C (|C| − g(|C|))·(unit − loss_C) (subadditive, so merging
 * can only lower it), with each column not yet fixed adding at most its largest loss.
 */
function branchBound(sizes: Uint32Array, outLost: Int32Array, count: number, credit: (size: number) => number, unit: number, remaining: number, from: number, base: BaseClasses): number {
  let penalty = 0;
  let weighted = 0;
  for (let c = 0; c < count; c++) {
    const short = sizes[c]! - credit(sizes[c]!);
    penalty += short;
    weighted += short * (unit - outLost[c]!);
  }
  let bound = remaining - weighted;
  for (let j = from; j < base.totalLost.length; j++) {
    let least = Infinity;
    for (let l = 0; l < base.totalLost[j]!.length; l++) least = Math.min(least, base.totalLost[j]![l]! - penalty * base.largestLost[j]![l]!);
    bound -= least;
  }
  return bound;
}

/**
 * Merges the classes of one depth that become identical once a column is fixed: classes with one
 * level-0 tuple on the columns still open are adjacent (a run), and within a run those with the
 * same new prefix merge. A per-prefix mark of the current run finds them in one pass.
 */
class RunMerge {
  private readonly runOf: Uint32Array;
  private readonly idOf: Uint32Array;
  private run = 0;

  constructor(size: number) {
    this.runOf = new Uint32Array(size);
    this.idOf = new Uint32Array(size);
  }

  /** Writes the merged classes (representative, weight, prefix) into nr, nw, np; returns their number. */
  merge(n: number, r: Uint32Array, w: Uint32Array, prefixOf: Uint32Array, rest: Uint32Array, nr: Uint32Array, nw: Uint32Array, np: Uint32Array): number {
    const { runOf, idOf } = this;
    let run = this.run;
    let groups = 0;
    let runTuple = -1;
    for (let g = 0; g < n; g++) {
      const tuple = rest[r[g]!]!;
      if (tuple !== runTuple) {
        runTuple = tuple;
        if (run === 0xffffffff) {
          runOf.fill(0);
          run = 1;
        } else run++;
      }
      const prefix = prefixOf[g]!;
      let id: number;
      if (runOf[prefix] === run) id = idOf[prefix]!;
      else {
        runOf[prefix] = run;
        idOf[prefix] = id = groups++;
        nr[id] = r[g]!;
        nw[id] = 0;
        np[id] = prefix;
      }
      nw[id]! += w[g]!;
    }
    this.run = run;
    return groups;
  }
}
