import { shuffleTogether } from '../random/shuffle.js';
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

/** Shuffles released rows so their order says nothing about the input order (the rows and every sensitive column move together). */
export function shuffleRelease(source: RandomSource, rows: ReleaseRows): void {
  shuffleTogether(source, [rows.sourceRow, ...rows.sensitive]);
}
