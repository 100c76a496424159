import type { ReleaseColumn } from './release-table.js';

/**
 * Each released column's codes in released-row order, gathered once through its `via` and kept
 * while the column's arrays are: a run reads the same released columns in the disclosure review,
 * the risk profile's input, the workbook's sheets and the CSV writer, and each gathered them again
 * (a random read per row and column, a fifth of a second per reader on a million rows).
 *
 * Keyed by the column's `via` and `codes` arrays, not by the table: tables over the same arrays (a
 * column compaction left as it was) share one gathering. The arrays handed out are shared: readers
 * must not write into them.
 */
const gathered = new WeakMap<Uint32Array, WeakMap<Uint32Array, Uint32Array>>();

/** The column's codes of released rows 0 … rows − 1 when they are already gathered, else undefined. */
export function gatheredCodes(column: ReleaseColumn, rows: number): Uint32Array | undefined {
  if (!column.via) return rows === column.codes.length ? column.codes : column.codes.subarray(0, rows);
  const kept = gathered.get(column.via)?.get(column.codes);
  return kept && kept.length === rows ? kept : undefined;
}

/** Keeps a column's gathered codes of its first `codes.length` released rows for the other readers. */
export function keepGatheredCodes(column: ReleaseColumn, codes: Uint32Array): void {
  if (!column.via) return;
  let byCodes = gathered.get(column.via);
  if (!byCodes) gathered.set(column.via, (byCodes = new WeakMap()));
  byCodes.set(column.codes, codes);
}

/**
 * Forgets the gathering of each column of `columns`: a run does once the readers above are done,
 * so at census scale (4 bytes per row and column) it does not stay beside what the analysis utility
 * and the risk profile hold.
 */
export function forgetGatheredCodes(columns: readonly ReleaseColumn[]): void {
  for (const column of columns) if (column.via) gathered.get(column.via)?.delete(column.codes);
}
