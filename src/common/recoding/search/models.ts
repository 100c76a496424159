import type { ClassTable, HistogramCodes } from './class-table.js';
import type { SensitiveColumn } from './recoding-input.js';
import { compareLog } from '../../exact/log.js';
import { rationalFromNumber, type Rational } from '../../exact/rational.js';

/**
 * The privacy models the search can enforce, as ARX 3.9 defines them (org.deidentifier.arx.criteria):
 * KAnonymity, DistinctLDiversity, EntropyLDiversity, RecursiveCLDiversity, EqualDistanceTCloseness,
 * OrderedDistanceTCloseness, HierarchicalDistanceTCloseness, and the prosecutor risk thresholds.
 */
export type PrivacyModel =
  | { readonly type: 'k-anonymity'; readonly k: number }
  | (OnAttribute & { readonly type: 'distinct-l-diversity'; readonly l: number })
  | (OnAttribute & { readonly type: 'entropy-l-diversity'; readonly l: number })
  | (OnAttribute & { readonly type: 'recursive-cl-diversity'; readonly c: number; readonly l: number })
  | (OnAttribute & { readonly type: 't-closeness'; readonly t: number; readonly distance: 'equal' | 'ordered' | 'hierarchical' })
  /**
   * ARX's BasicBLikeness and EnhancedBLikeness (Cao, Karras 2012): for every value v of a class with
   * q_v > p_v, (q_v − p_v)/p_v ≤ β (basic) or ≤ min(β, −ln p_v) (enhanced); p is the input's distribution.
   */
  | (OnAttribute & { readonly type: 'beta-likeness'; readonly beta: number; readonly variant: 'basic' | 'enhanced' })
  /**
   * δ-disclosure privacy (Brickell, Shmatikov 2008): |ln(q_v / p_v)| < δ for every value v the class
   * holds. Natural logarithm, as the paper and pycanon; ARX's DDisclosurePrivacy takes log₂ (its δ is this δ / ln 2).
   */
  | (OnAttribute & { readonly type: 'delta-disclosure'; readonly delta: number })
  /**
   * No released record with risk 1/|class| above `risk`. The prosecutor's risk, and the bound of the
   * journalist's (a class's population count is at least its sample count): a journalist threshold
   * is enforced on it, never on an estimate from a sampling fraction.
   */
  | { readonly type: 'maximum-risk'; readonly risk: number }
  /** Released records' mean risk, classes / records, at most `risk`. */
  | { readonly type: 'average-risk'; readonly risk: number }
  /**
   * δ-presence (Nergiz, Atzori, Clifton 2007), as ARX's DPresence: the input is the population and a
   * research subset of it is released; every class with subset records has δmin ≤ subset records /
   * all records ≤ δmax (the class table's sizes / population), and a class with none has δ = 0, which
   * fails the whole transformation when δmin > 0 (no record of it can be suppressed).
   */
  | { readonly type: 'delta-presence'; readonly deltaMin: number; readonly deltaMax: number };

/**
 * Which sensitive column a model of the sensitive value is applied to, as ARX names each model's
 * attribute: the index in the search's list of sensitive columns (0, the only one, by default).
 */
export interface OnAttribute {
  readonly attribute?: number;
}

export function needsSensitive(model: PrivacyModel): boolean {
  return model.type !== 'k-anonymity' && model.type !== 'maximum-risk' && model.type !== 'average-risk' && model.type !== 'delta-presence';
}

/**
 * Monotone with generalization: if every class of a node meets the model, every class of every
 * generalization does (merging classes that meet it gives a class that meets it). True of every
 * model here: sizes add; distinct values unite; entropy and the t-closeness distances are concave
 * and convex in the mixture; recursive (c,ℓ) sums its inequality over the merged classes
 * (Machanavajjhala et al. 2007, Li et al. 2007); the average risk's class count can only fall.
 *
 * Monotone with suppression: if a node meets the model with at most the allowed share of records
 * suppressed, so does every generalization. Only where a class that meets the model stays meeting
 * it whatever it is merged with: k-anonymity, distinct ℓ-diversity and the maximum risk (a merged
 * class is at least as large, with at least as many distinct values). Entropy and recursive
 * ℓ-diversity, t-closeness, β-likeness and the average risk are not: a class that meets them merged
 * with one that fails can fail, adding records to the suppressed count (ARX marks them so too).
 *
 * δ-presence is not either (ARX's DPresence declares so): a class within [δmin, δmax] merged with
 * one outside can fall outside.
 *
 * δ-disclosure privacy is not monotone even with generalization: it bounds q_v/p_v from below for
 * the values a class holds, and a class merged with one that lacks v can fall below e^−δ·p_v (ARX's
 * DDisclosurePrivacy declares itself monotone with neither). Every node is checked.
 */
export function monotoneWithSuppression(model: PrivacyModel): boolean {
  return model.type === 'k-anonymity' || model.type === 'distinct-l-diversity' || model.type === 'maximum-risk';
}

/**
 * Monotone with generalization in exact arithmetic (integer sizes and counts): checks above a node that
 * suppresses nothing can be skipped. β-likeness is: its bound on each value, q_v ≤ p_v·(1 + b_v), is
 * linear in the class's distribution with b_v fixed per value, so a merge of classes that meet it
 * meets it, and its boundary classes are decided exactly (betaLike), so no rounding breaks that.
 * Entropy ℓ-diversity is too: entropy is concave, so a merge's is at least the least of its parts',
 * its values at least as many, and a class near the threshold is decided in integers (entropyDiverse).
 * So is t-closeness: each distance is an earth mover's distance to the fixed input distribution,
 * convex in the class's distribution, so a merge's is at most the largest of its parts', and a
 * class near t is decided in integers (scaledCloseness). Recursive (c,ℓ)-diversity is: merging classes
 * adds their counts, r₁ of the merge is at most the sum of the parts' r₁ and its tail at least the
 * sum of theirs, and its boundary is decided in integers (recursiveDiverse). δ-presence is (ARX's
 * DPresence says so too): a merge's share s₁+s₂ / p₁+p₂ lies between its parts' s/p (a mediant), a
 * class of no subset record meets it only when δmin = 0 and then adds no constraint, and the
 * bounds are decided in integers (present).
 */
export function exactlyMonotoneWithGeneralization(model: PrivacyModel): boolean {
  return model.type === 'k-anonymity' || model.type === 'distinct-l-diversity' || model.type === 'maximum-risk' || model.type === 'average-risk' || model.type === 'beta-likeness' || model.type === 'entropy-l-diversity' || model.type === 't-closeness' || model.type === 'recursive-cl-diversity' || model.type === 'delta-presence';
}

/** One sensitive column as the checks see it: its cells in the class table's histogram and the input's distribution. */
export interface SensitivePart {
  readonly sensitive: SensitiveColumn;
  /** The column's first cell in each class's histogram row, and its number of cells: hist[c · table.values + offset + v]. */
  readonly offset: number;
  readonly values: number;
  /** The input's distribution of sensitive values (all records, suppressed ones included, as ARX). */
  readonly overall: Float64Array;
  /** Values present in the input, in the ordered distance's order (ARX's order over its dictionary). */
  readonly ordered: Uint32Array;
  /** The input's count of each sensitive value (all records), for the exact decisions of β-likeness and δ-disclosure. */
  readonly counts: Float64Array;
}

/** What a class check needs beyond the class: each sensitive column's part (the first's fields repeated at the top, for a job with one). */
export interface ModelContext {
  readonly sensitive: SensitiveColumn | undefined;
  readonly overall: Float64Array;
  readonly ordered: Uint32Array;
  readonly counts: Float64Array;
  readonly parts: readonly SensitivePart[];
  /** The input's records, N: p_v = counts[v] / N. */
  readonly total: number;
}

/** The sensitive columns as a list (a search of one passes it alone, as before). */
export const sensitiveList = (sensitive: SensitiveColumn | readonly SensitiveColumn[] | undefined): readonly SensitiveColumn[] =>
  sensitive === undefined ? [] : Array.isArray(sensitive) ? (sensitive as readonly SensitiveColumn[]) : [sensitive as SensitiveColumn];

export function modelContext(sensitive: SensitiveColumn | readonly SensitiveColumn[] | undefined, rowCount: number): ModelContext {
  const list = sensitiveList(sensitive);
  let offset = 0;
  const parts = list.map((column): SensitivePart => {
    const counts = new Float64Array(column.values);
    for (let r = 0; r < rowCount; r++) counts[column.codes[r]!]!++;
    const overall = counts.map((c) => c / rowCount);
    const present = Array.from({ length: column.values }, (_, v) => v).filter((v) => counts[v]! > 0);
    present.sort((a, b) => column.rank[a]! - column.rank[b]!);
    const part = { sensitive: column, offset, values: column.values, overall, ordered: Uint32Array.from(present), counts };
    offset += column.values;
    return part;
  });
  const first = parts[0];
  if (!first) return { sensitive: undefined, overall: new Float64Array(0), ordered: new Uint32Array(0), counts: new Float64Array(0), parts, total: rowCount };
  return { sensitive: first.sensitive, overall: first.overall, ordered: first.ordered, counts: first.counts, parts, total: rowCount };
}

/**
 * The class builder's histogram codes for the sensitive columns: one column as it is; several side
 * by side, each record counted once in each column's cells (the later columns' codes shifted by the
 * cells before them), so every column's histogram rolls up with the classes.
 */
export function histogramCodes(sensitive: SensitiveColumn | readonly SensitiveColumn[] | undefined): HistogramCodes | undefined {
  const list = sensitiveList(sensitive);
  if (list.length <= 1) return list[0];
  let offset = list[0]!.values;
  const more = list.slice(1).map((column) => {
    const shifted = Uint32Array.from(column.codes, (code) => code + offset);
    offset += column.values;
    return shifted;
  });
  return { codes: list[0]!.codes, values: offset, more };
}

/** The part a model of the sensitive value checks. */
function partOf(model: OnAttribute, ctx: ModelContext): SensitivePart {
  const part = ctx.parts[model.attribute ?? 0];
  if (!part) throw new RangeError(`the model names sensitive column ${model.attribute ?? 0}, and the search has ${ctx.parts.length}`);
  return part;
}

/** Whether class c meets a model that is decided class by class (every model but the average risk). */
export function classMeets(model: PrivacyModel, table: ClassTable, c: number, ctx: ModelContext): boolean {
  const size = table.sizes[c]!;
  switch (model.type) {
    case 'k-anonymity':
      return size >= model.k;
    case 'maximum-risk':
      // Divided, not multiplied by 1/size: 1 / 5 is exactly the 0.2 a person writes.
      return 1 / size <= model.risk;
    case 'average-risk':
      return true;
    case 'distinct-l-diversity':
      return distinctValues(table, c, partOf(model, ctx)) >= model.l;
    case 'entropy-l-diversity':
      return entropyDiverse(table, c, model.l, partOf(model, ctx));
    case 'recursive-cl-diversity':
      return recursiveDiverse(table, c, model.c, model.l, partOf(model, ctx));
    case 't-closeness': {
      const part = partOf(model, ctx);
      const distance = closenessOf(model.distance, table, c, part);
      if (!near(distance, model.t)) return distance <= model.t;
      const { scaled, unit } = scaledCloseness(model.distance, table, c, part, ctx.total);
      const t = exactThreshold(model.t);
      return scaled * t.den <= t.num * unit;
    }
    case 'beta-likeness':
      return betaLike(table, c, model.beta, model.variant, partOf(model, ctx), ctx.total);
    case 'delta-disclosure':
      return deltaDisclosed(table, c, model.delta, partOf(model, ctx), ctx.total);
    case 'delta-presence':
      return present(table, c, model.deltaMin, model.deltaMax);
  }
}

/**
 * δ-presence of class c: δ = s/p with s its subset records and p all its records (0 without subset
 * records, as ARX), δmin ≤ δ ≤ δmax decided exactly: s·den ≥ num·p for each bound num/den, the
 * bound being the decimal the job wrote (a share of exactly δmax meets it, as ARX's ≤).
 */
export function present(table: ClassTable, c: number, deltaMin: number, deltaMax: number): boolean {
  if (!table.population) throw new RangeError('δ-presence needs a research subset');
  const inSubset = table.sizes[c]!;
  if (inSubset === 0) return deltaMin === 0;
  const share = inSubset / table.population[c]!;
  if (!near(share, deltaMin) && !near(share, deltaMax)) return share >= deltaMin && share <= deltaMax;
  const s = BigInt(inSubset);
  const p = BigInt(table.population[c]!);
  const low = exactThreshold(deltaMin);
  const high = exactThreshold(deltaMax);
  return s * low.den >= low.num * p && s * high.den <= high.num * p;
}

/**
 * Doubles decide a class unless the value lies within this relative distance of the threshold (plus
 * an absolute 10⁻¹⁵ for thresholds near 0); then it is decided exactly. A double's quotient of exact
 * integers is within 2⁻⁵³ relative, Math.log within a few units of 2⁻⁵², so 10⁻⁹ leaves a wide margin.
 */
const NEAR = 1e-9;
const near = (value: number, threshold: number): boolean => Math.abs(value - threshold) <= NEAR * Math.abs(threshold) + 1e-15;
/** Products of counts below this are exact in doubles (√2⁵³): above it every value is decided in bigint. */
const EXACT_COUNTS = 94_906_265;

/** A job's threshold as the exact decimal it was written as (cached: the search asks for it at every boundary). */
const exactThresholds = new Map<number, Rational>();
function exactThreshold(value: number): Rational {
  let r = exactThresholds.get(value);
  if (!r) exactThresholds.set(value, (r = rationalFromNumber(value)));
  return r;
}

/**
 * β-likeness of class c: for every value v with q_v = f/n above p_v = C/N, the relative gain
 * (fN − nC)/(nC) ≤ β, and (enhanced) ≤ −ln p_v = ln(N/C). In integers: D = fN − nC ≤ 0 passes;
 * else D/(nC) ≤ β is D·den(β) ≤ num(β)·nC, β being the decimal the job wrote, and D/(nC) ≤ ln(N/C)
 * is decided by compareLog. A gain exactly β meets the model (≤, as ARX); a gain exactly −ln p_v
 * cannot occur (a logarithm of a rational ≠ 1 is irrational).
 */
function betaLike(table: ClassTable, c: number, beta: number, variant: 'basic' | 'enhanced', part: SensitivePart, N: number): boolean {
  const { hist } = table;
  const n = table.sizes[c]!;
  for (let v = 0, at = c * table.values + part.offset; v < part.values; v++, at++) {
    const f = hist![at]!;
    if (f === 0) continue;
    const C = part.counts[v]!;
    if (N <= EXACT_COUNTS) {
      const gain = f * N - n * C;
      if (gain <= 0) continue;
      const gainRatio = gain / (n * C);
      const bound = variant === 'enhanced' ? Math.min(beta, Math.log(N / C)) : beta;
      if (!near(gainRatio, beta) && (variant === 'basic' || !near(gainRatio, Math.log(N / C)))) {
        if (gainRatio > bound) return false;
        continue;
      }
    }
    if (!betaLikeExactly(BigInt(f), BigInt(n), BigInt(C), BigInt(N), beta, variant)) return false;
  }
  return true;
}

function betaLikeExactly(f: bigint, n: bigint, C: bigint, N: bigint, beta: number, variant: 'basic' | 'enhanced'): boolean {
  const gain = f * N - n * C;
  if (gain <= 0n) return true;
  const b = exactThreshold(beta);
  if (gain * b.den > b.num * n * C) return false;
  return variant === 'basic' || compareLog(N, C, { num: gain, den: n * C }) > 0;
}

/**
 * δ-disclosure of class c: for every value v it holds, |ln(q_v/p_v)| < δ with q_v/p_v = fN/(nC).
 * Near the threshold: compareLog on the larger of fN, nC over the smaller against δ as written. A
 * ratio whose logarithm is exactly δ cannot occur (δ > 0 rational), so < and ≤ decide alike.
 */
function deltaDisclosed(table: ClassTable, c: number, delta: number, part: SensitivePart, N: number): boolean {
  const { hist } = table;
  const n = table.sizes[c]!;
  for (let v = 0, at = c * table.values + part.offset; v < part.values; v++, at++) {
    const f = hist![at]!;
    if (f === 0) continue;
    const C = part.counts[v]!;
    if (N <= EXACT_COUNTS) {
      const distance = Math.abs(Math.log((f * N) / (n * C)));
      if (!near(distance, delta)) {
        if (distance >= delta) return false;
        continue;
      }
    }
    const up = BigInt(f) * BigInt(N);
    const down = BigInt(n) * BigInt(C);
    if (up === down) continue;
    if (compareLog(up > down ? up : down, up > down ? down : up, exactThreshold(delta)) >= 0) return false;
  }
  return true;
}

function distinctValues(table: ClassTable, c: number, part: SensitivePart): number {
  const { hist } = table;
  let distinct = 0;
  for (let v = 0, at = c * table.values + part.offset; v < part.values; v++, at++) if (hist![at]! > 0) distinct++;
  return distinct;
}

/**
 * ARX's EntropyLDiversity: −Σ p·log₂ p ≥ log₂ ℓ, fewer than ℓ values failing outright. Doubles decide
 * unless the entropy lies within 10⁻⁹ relative of log₂ ℓ; there it is decided in integers: with
 * counts f of the class's n records, H ≥ log ℓ ⟺ n·log n − Σ f·log f ≥ n·log ℓ ⟺ n^n ≥ ℓ^n·Π f^f.
 * An entropy of exactly log₂ ℓ (ℓ values of n/ℓ records each) meets the model, as its ≥ says; ARX's
 * doubles can reject it (a rounding step below log₂ 3 on Adult, issue 36).
 */
function entropyDiverse(table: ClassTable, c: number, l: number, part: SensitivePart): boolean {
  if (distinctValues(table, c, part) < l) return false;
  const { hist } = table;
  const total = table.sizes[c]!;
  let sum = 0;
  for (let v = 0, at = c * table.values + part.offset; v < part.values; v++, at++) {
    const n = hist![at]!;
    if (n === 0) continue;
    const p = n / total;
    sum += p * (Math.log(p) / Math.LN2);
  }
  const threshold = Math.log(l) / Math.log(2);
  if (!near(-sum, threshold)) return -sum >= threshold;
  let product = 1n;
  for (let v = 0, at = c * table.values + part.offset; v < part.values; v++, at++) {
    const f = hist![at]!;
    if (f > 1) product *= BigInt(f) ** BigInt(f);
  }
  const n = BigInt(total);
  return n ** n >= BigInt(l) ** n * product;
}

/** c of recursive (c,ℓ)-diversity as an exact fraction num/den, parsed once per value (the job's decimal). */
const recursiveC = new Map<number, Rational>();

/**
 * Recursive (c,ℓ)-diversity (Machanavajjhala et al.): r₁ < c·(r_ℓ + … + r_m) with counts sorted
 * descending, decided exactly as den·r₁ < num·tail for c = num/den (in doubles c·tail rounds, and a
 * class at the boundary could pass where its merge with another fails: exact, the model is monotone
 * with generalization and the search may skip checks above a node that suppresses nothing).
 */
function recursiveDiverse(table: ClassTable, c: number, cValue: number, l: number, part: SensitivePart): boolean {
  const { hist } = table;
  const counts: number[] = [];
  for (let v = 0, at = c * table.values + part.offset; v < part.values; v++, at++) if (hist![at]! > 0) counts.push(hist![at]!);
  if (counts.length < l) return false;
  counts.sort((a, b) => b - a);
  let tail = 0;
  for (let i = l - 1; i < counts.length; i++) tail += counts[i]!;
  let exact = recursiveC.get(cValue);
  if (!exact) recursiveC.set(cValue, (exact = rationalFromNumber(cValue)));
  return exact.den * BigInt(counts[0]!) < exact.num * BigInt(tail);
}

/** The earth mover's distance of the class's sensitive distribution to the input's (the first sensitive column's, or `attribute`'s). */
export function closeness(distance: 'equal' | 'ordered' | 'hierarchical', table: ClassTable, c: number, ctx: ModelContext, attribute = 0): number {
  return closenessOf(distance, table, c, partOf({ attribute }, ctx));
}

function closenessOf(distance: 'equal' | 'ordered' | 'hierarchical', table: ClassTable, c: number, part: SensitivePart): number {
  const { hist } = table;
  const values = part.values;
  const size = table.sizes[c]!;
  const base = c * table.values + part.offset;
  if (distance === 'equal') {
    // ARX's EqualDistanceTCloseness: ½ Σ |p_v − q_v|.
    let sum = 0;
    for (let v = 0; v < values; v++) sum += Math.abs(part.overall[v]! - hist![base + v]! / size);
    return sum / 2;
  }
  if (distance === 'ordered') {
    // ARX's OrderedDistanceTCloseness: Σ_i |Σ_{j ≤ i} (p_j − q_j)| / (m − 1) over the m values present.
    const m = part.ordered.length;
    if (m <= 1) return 0;
    let running = 0;
    let sum = 0;
    for (let i = 0; i < m; i++) {
      const v = part.ordered[i]!;
      running += hist![base + v]! / size - part.overall[v]!;
      sum += Math.abs(running);
    }
    return sum / (m - 1);
  }
  return hierarchicalDistance(table, c, part);
}

/**
 * The distance of closeness() in integers, for a class near the threshold: with the class's counts f
 * of n records and the input's C of N, every difference q_v − p_v is (f_v·N − C_v·n)/(n·N), so the
 * distance is scaled/unit with scaled = Σ|f·N − C·n| and unit = 2nN (equal), Σ_i |Σ_{j≤i} (f·N − C·n)|
 * and (m − 1)·n·N (ordered), Σ_N level(N)·min(surplus, deficit) and H·n·N (hierarchical). A distance
 * of exactly t meets the model (≤, as ARX).
 */
function scaledCloseness(distance: 'equal' | 'ordered' | 'hierarchical', table: ClassTable, c: number, part: SensitivePart, total: number): { scaled: bigint; unit: bigint } {
  const { hist } = table;
  const values = part.values;
  const n = BigInt(table.sizes[c]!);
  const N = BigInt(total);
  const base = c * table.values + part.offset;
  const difference = (v: number): bigint => BigInt(hist![base + v]!) * N - BigInt(part.counts[v]!) * n;
  const abs = (x: bigint): bigint => (x < 0n ? -x : x);
  if (distance === 'equal') {
    let sum = 0n;
    for (let v = 0; v < values; v++) sum += abs(difference(v));
    return { scaled: sum, unit: 2n * n * N };
  }
  if (distance === 'ordered') {
    const m = part.ordered.length;
    if (m <= 1) return { scaled: 0n, unit: 1n };
    let running = 0n;
    let sum = 0n;
    for (let i = 0; i < m; i++) {
      running += difference(part.ordered[i]!);
      sum += abs(running);
    }
    return { scaled: sum, unit: BigInt(m - 1) * n * N };
  }
  const ancestors = part.sensitive.ancestors;
  if (!ancestors || ancestors.length === 0) throw new RangeError('hierarchical t-closeness needs a hierarchy for the sensitive column');
  // The walk of hierarchicalDistance, on integer extras.
  const height = ancestors.length;
  let extra = new Map<number, bigint>();
  for (let v = 0; v < values; v++) {
    const e = difference(v);
    if (e !== 0n) extra.set(v, e);
  }
  let sum = 0n;
  let childOf = (v: number): number => ancestors[0]![v]!;
  for (let level = 1; level <= height; level++) {
    const positive = new Map<number, bigint>();
    const negative = new Map<number, bigint>();
    const next = new Map<number, bigint>();
    for (const [node, e] of extra) {
      const parent = childOf(node);
      if (e > 0n) positive.set(parent, (positive.get(parent) ?? 0n) + e);
      else negative.set(parent, (negative.get(parent) ?? 0n) - e);
      next.set(parent, (next.get(parent) ?? 0n) + e);
    }
    for (const [parent, pos] of positive) {
      const neg = negative.get(parent) ?? 0n;
      sum += BigInt(level) * (pos < neg ? pos : neg);
    }
    extra = next;
    if (level < height) {
      const leafOf = new Map<number, number>();
      for (let v = 0; v < values; v++) if (!leafOf.has(ancestors[level - 1]![v]!)) leafOf.set(ancestors[level - 1]![v]!, v);
      const up = ancestors[level]!;
      childOf = (node: number): number => up[leafOf.get(node)!]!;
    }
  }
  return { scaled: sum, unit: BigInt(height) * n * N };
}

/**
 * Li, Li, Venkatasubramanian (2007), hierarchical distance: Σ over inner nodes N of
 * height(N)/H · min(pos_extra(N), neg_extra(N)), extra being the class's surplus over the input's
 * distribution in N's subtree; the levels of the sensitive column's hierarchy are the heights.
 */
function hierarchicalDistance(table: ClassTable, c: number, part: SensitivePart): number {
  const ancestors = part.sensitive.ancestors;
  if (!ancestors || ancestors.length === 0) throw new RangeError('hierarchical t-closeness needs a hierarchy for the sensitive column');
  const { hist } = table;
  const values = part.values;
  const base = c * table.values + part.offset;
  const size = table.sizes[c]!;
  const height = ancestors.length;
  // extra of every leaf, then of each level's nodes, split into surplus and deficit of their children.
  let extra = new Map<number, number>();
  for (let v = 0; v < values; v++) {
    const e = hist![base + v]! / size - part.overall[v]!;
    if (e !== 0) extra.set(v, e);
  }
  let distance = 0;
  let childOf = (v: number): number => ancestors[0]![v]!;
  for (let level = 1; level <= height; level++) {
    const positive = new Map<number, number>();
    const negative = new Map<number, number>();
    const next = new Map<number, number>();
    for (const [node, e] of extra) {
      const parent = childOf(node);
      if (e > 0) positive.set(parent, (positive.get(parent) ?? 0) + e);
      else negative.set(parent, (negative.get(parent) ?? 0) - e);
      next.set(parent, (next.get(parent) ?? 0) + e);
    }
    for (const [parent, pos] of positive) distance += (level / height) * Math.min(pos, negative.get(parent) ?? 0);
    extra = next;
    if (level < height) {
      // A node of level l is identified by a leaf below it; its parent is that leaf's ancestor at l + 1.
      const leafOf = new Map<number, number>();
      for (let v = 0; v < values; v++) if (!leafOf.has(ancestors[level - 1]![v]!)) leafOf.set(ancestors[level - 1]![v]!, v);
      const up = ancestors[level]!;
      childOf = (node: number): number => up[leafOf.get(node)!]!;
    }
  }
  return distance;
}
