import { GrowableUint32 } from '../table/growable.js';
import { keyColumn, tupleIds } from '../table/tuple-ids.js';
import { exactBernoulli } from '../random/draws.js';
import type { RandomSource } from '../random/source.js';
import { shuffleInPlace } from '../random/draws.js';
import type { Rational } from '../exact/rational.js';
import type { GeneralizedColumn } from './hierarchy.js';

export interface ClassCensus {
  /** Released input rows, in random order. */
  readonly rows: Uint32Array;
  readonly classes: number;
  readonly minClassSize: number;
  readonly suppressedRows: number;
  readonly suppressedClasses: number;
  /** Size of every released class. */
  readonly classSizes: Uint32Array;
}

/** Groups the given rows by their tuple over the columns; returns the class id per listed row. */
export function classesOf(columns: readonly { codes: Uint32Array; dictionary: readonly string[] }[], rows: Uint32Array): { classOf: Uint32Array; count: number } {
  const { ids, count } = tupleIds(columns.map(keyColumn), rows, rows.length);
  return { classOf: ids, count };
}

/** Keeps the rows of classes that pass `keep`; released rows are shuffled. */
export function suppressClasses(source: RandomSource, rows: Uint32Array, classOf: Uint32Array, classCount: number, keep: (cls: number, size: number) => boolean): ClassCensus {
  const sizes = new Uint32Array(classCount);
  for (let i = 0; i < rows.length; i++) sizes[classOf[i]!]!++;
  const kept = new Uint8Array(classCount);
  let classes = 0;
  let minClassSize = 0;
  let suppressedClasses = 0;
  for (let c = 0; c < classCount; c++) {
    if (sizes[c]! > 0 && keep(c, sizes[c]!)) {
      kept[c] = 1;
      classes++;
      if (minClassSize === 0 || sizes[c]! < minClassSize) minClassSize = sizes[c]!;
    } else if (sizes[c]! > 0) suppressedClasses++;
  }
  const out = new GrowableUint32(rows.length);
  for (let i = 0; i < rows.length; i++) if (kept[classOf[i]!]) out.push(rows[i]!);
  const released = out.toArray();
  shuffleInPlace(source, released);
  const classSizes = new Uint32Array(classes);
  let j = 0;
  for (let c = 0; c < classCount; c++) if (kept[c]) classSizes[j++] = sizes[c]!;
  return { rows: released, classes, minClassSize, suppressedRows: rows.length - released.length, suppressedClasses, classSizes };
}

/**
 * Strongly-safe k-anonymization after Bernoulli(β) sampling (Li, Qardaji, Su (2012)): exact sampling draws, a recoding fixed before the data are read, and
 * every class of identical released tuples (all released columns) with fewer
 * than k rows deleted.
 */
export function safeKAnonymize(source: RandomSource, columns: readonly GeneralizedColumn[], rowCount: number, k: number, sampling: Rational): ClassCensus & { readonly sampled: number } {
  return anonymizeSample(source, columns, bernoulliSample(source, rowCount, sampling), k);
}

/** Each row independently with probability β (exact draws). */
export function bernoulliSample(source: RandomSource, rowCount: number, sampling: Rational): Uint32Array {
  const coin = exactBernoulli(sampling);
  const sample = new GrowableUint32(Math.ceil(rowCount * (Number(sampling.num) / Number(sampling.den))) + 1024);
  for (let r = 0; r < rowCount; r++) if (coin.draw(source)) sample.push(r);
  return sample.toArray();
}

/** Generalized sample → classes of identical tuples → delete classes below k. */
export function anonymizeSample(source: RandomSource, columns: readonly GeneralizedColumn[], rows: Uint32Array, k: number): ClassCensus & { readonly sampled: number } {
  const { classOf, count } = classesOf(columns, rows);
  return { ...suppressClasses(source, rows, classOf, count, (_c, size) => size >= k), sampled: rows.length };
}
