import { randomPermutation, uniformInt } from '../random/draws.js';
import type { RandomSource } from '../random/source.js';
import type { GeneralizedColumn } from './hierarchy.js';
import { classesOf, suppressClasses, type ClassCensus } from './classes.js';

export type PrivacyModel = { readonly type: 'k-anonymity'; readonly k: number } | { readonly type: 'l-diversity'; readonly l: number } | { readonly type: 't-closeness'; readonly t: number };

export interface PartResult extends ClassCensus {
  readonly part: number;
  readonly size: number;
  /** Worst value of the model's measure among released classes (size, distinct values or distance). */
  readonly worst: number;
}

/**
 * Partitioned recoding (Clifton et al., “A partitioned recoding scheme for privacy preserving data publishing” (2020)): a random split into P parts of
 * sizes ⌊n/P⌋ or ⌈n/P⌉ (depending only on n and P), each anonymized with the
 * same global recoding and suppression of classes that fail the model.
 */
export function partitionedRecoding(
  source: RandomSource,
  quasi: readonly GeneralizedColumn[],
  sensitive: { codes: Uint32Array; m: number } | undefined,
  rowCount: number,
  parts: number,
  model: PrivacyModel,
  /** The split, when drawn before (a search over the parts): else drawn here. */
  split?: readonly Uint32Array[],
): { readonly partOfRow: Uint8Array | Uint32Array; readonly parts: PartResult[] } {
  const partOfRow = parts < 256 ? new Uint8Array(rowCount) : new Uint32Array(rowCount);
  const results = (split ?? randomParts(source, rowCount, parts)).map((rows, p): PartResult => {
    for (const r of rows) partOfRow[r] = p;
    const { classOf, count } = classesOf(quasi, rows);
    const measure = classMeasure(model, rows, classOf, count, sensitive);
    const passes = (c: number, size: number): boolean =>
      model.type === 'k-anonymity' ? size >= model.k : model.type === 'l-diversity' ? measure[c]! >= model.l : measure[c]! <= model.t + 1e-12;
    const census = suppressClasses(source, rows, classOf, count, passes);
    let worst = model.type === 't-closeness' ? 0 : Infinity;
    const sizes = new Uint32Array(count);
    for (let i = 0; i < rows.length; i++) sizes[classOf[i]!]!++;
    for (let c = 0; c < count; c++) {
      if (sizes[c] === 0 || !passes(c, sizes[c]!)) continue;
      const value = model.type === 'k-anonymity' ? sizes[c]! : measure[c]!;
      worst = model.type === 't-closeness' ? Math.max(worst, value) : Math.min(worst, value);
    }
    return { ...census, part: p + 1, size: rows.length, worst: Number.isFinite(worst) ? worst : 0 };
  });
  return { partOfRow, parts: results };
}

/** A random split of rows 0 … n−1 into `parts` disjoint parts of sizes ⌊n/P⌋ or ⌈n/P⌉, which depend only on n and P. */
export function randomParts(source: RandomSource, rowCount: number, parts: number): Uint32Array[] {
  if (!Number.isInteger(parts) || parts < 1 || parts > rowCount) throw new RangeError('parts must be an integer between 1 and the number of records');
  const order = randomPermutation(source, rowCount);
  const out: Uint32Array[] = [];
  let offset = 0;
  for (let p = 0; p < parts; p++) {
    const size = Math.floor(rowCount / parts) + (p < rowCount % parts ? 1 : 0);
    out.push(order.slice(offset, (offset += size)));
  }
  return out;
}

/**
 * Each row to one of `parts` parts, independently and uniformly. Unlike a split
 * into fixed sizes, adding or removing one record leaves the other rows'
 * assignment unchanged, so a mechanism run per part composes in parallel under
 * add/remove neighbours, and each part is a Poisson sample at rate 1/parts.
 */
export function independentParts(source: RandomSource, rowCount: number, parts: number): Uint32Array[] {
  if (!Number.isInteger(parts) || parts < 1) throw new RangeError('parts must be a positive integer');
  const partOf = new Uint32Array(rowCount);
  const sizes = new Uint32Array(parts);
  for (let r = 0; r < rowCount; r++) sizes[(partOf[r] = uniformInt(source, parts))]!++;
  const out = Array.from(sizes, (size) => new Uint32Array(size));
  const filled = new Uint32Array(parts);
  for (let r = 0; r < rowCount; r++) out[partOf[r]!]![filled[partOf[r]!]!++] = r;
  return out;
}

/** Distinct sensitive values per class (ℓ-diversity) or the equal-distance EMD to the part's distribution (t-closeness). */
function classMeasure(model: PrivacyModel, rows: Uint32Array, classOf: Uint32Array, count: number, sensitive: { codes: Uint32Array; m: number } | undefined): Float64Array {
  const out = new Float64Array(count);
  if (model.type === 'k-anonymity') return out;
  if (!sensitive) throw new RangeError(`${model.type} needs a sensitive column`);
  const { codes, m } = sensitive;
  const perClass = new Map<number, Map<number, number>>();
  const overall = new Float64Array(m + 1);
  for (let i = 0; i < rows.length; i++) {
    const v = codes[rows[i]!]!;
    overall[v]!++;
    let counts = perClass.get(classOf[i]!);
    if (!counts) perClass.set(classOf[i]!, (counts = new Map()));
    counts.set(v, (counts.get(v) ?? 0) + 1);
  }
  for (const [c, counts] of perClass) {
    if (model.type === 'l-diversity') {
      out[c] = counts.size;
      continue;
    }
    let size = 0;
    for (const n of counts.values()) size += n;
    let distance = 0;
    for (let v = 0; v <= m; v++) distance += Math.abs((counts.get(v) ?? 0) / size - overall[v]! / rows.length);
    out[c] = distance / 2;
  }
  return out;
}
