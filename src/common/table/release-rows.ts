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
  for (let i = sourceRow.length - 1; i > 0; i--) {
    const j = uniformInt(source, i + 1);
    let t = sourceRow[i]!;
    sourceRow[i] = sourceRow[j]!;
    sourceRow[j] = t;
    for (const column of sensitive) {
      t = column[i]!;
      column[i] = column[j]!;
      column[j] = t;
    }
  }
}
