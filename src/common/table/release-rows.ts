import { uniformInt } from '../random/draws.js';
import type { RandomSource } from '../random/source.js';

/**
 * A released table as references: released row r shows the non-sensitive
 * columns of input row sourceRow[r] and, per sensitive column, the domain index
 * sensitive[k][r]. Writers turn it into text; nothing is copied per row.
 */
export interface ReleaseRows {
  readonly sourceRow: Uint32Array;
  readonly sensitive: readonly Uint32Array[];
}

/** Shuffles released rows so their order says nothing about the input order. */
export function shuffleRelease(source: RandomSource, rows: ReleaseRows): void {
  const { sourceRow, sensitive } = rows;
  // One sensitive column is the usual case: swapped beside the rows without a loop over columns.
  if (sensitive.length === 1) {
    shufflePair(source, sourceRow, sensitive[0]!);
    return;
  }
  for (let i = sourceRow.length - 1; i > 0; i--) {
    const j = uniformInt(source, i + 1);
    swap(sourceRow, i, j);
    for (const column of sensitive) swap(column, i, j);
  }
}

/** Fisher–Yates over two arrays at once (the same draws as over one). */
function shufflePair(source: RandomSource, a: Uint32Array, b: Uint32Array): void {
  for (let i = a.length - 1; i > 0; i--) {
    const j = uniformInt(source, i + 1);
    swap(a, i, j);
    swap(b, i, j);
  }
}

function swap(values: Uint32Array, i: number, j: number): void {
  const t = values[i]!;
  values[i] = values[j]!;
  values[j] = t;
}
