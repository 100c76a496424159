import { sortByCode } from './rows-by-code.js';
import type { Column } from './table.js';
import { keyColumn, tupleIds } from './tuple-ids.js';

/**
 * Rows grouped by the exact combination of a set of columns (the micro groups of
 * Wang, Han, Fu, 2012 when the columns are every released non-sensitive column).
 * rowsByGroup lists row indices group after group; group g owns
 * rowsByGroup[offsets[g] .. offsets[g+1]).
 */
export interface Grouping {
  readonly groupCount: number;
  readonly groupOfRow: Uint32Array;
  readonly offsets: Uint32Array;
  readonly rowsByGroup: Uint32Array;
}

export function groupRows(columns: readonly Column[], rowCount: number): Grouping {
  const { ids, count } = tupleIds(columns.map(keyColumn), null, rowCount);
  return groupingOf(ids, count);
}

/** The grouping whose group of row r is groupOfRow[r] (dense ids below groupCount), its rows listed group after group. */
export function groupingOf(groupOfRow: Uint32Array, groupCount: number): Grouping {
  const { start: offsets, order: rowsByGroup } = sortByCode(groupOfRow, groupCount);
  return { groupCount, groupOfRow, offsets, rowsByGroup };
}

export function groupSize(grouping: Grouping, g: number): number {
  return grouping.offsets[g + 1]! - grouping.offsets[g]!;
}
