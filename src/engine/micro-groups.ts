import type { Column } from './table.js';
import { keyColumn, tupleIds } from './tuple-ids.js';

/**
 * Rows grouped by the exact combination of a set of columns (paper 004's
 * micro groups when the columns are every released non-sensitive column).
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
  const { ids: groupOfRow, count: groupCount } = tupleIds(columns.map(keyColumn), null, rowCount);
  const offsets = new Uint32Array(groupCount + 1);
  for (let i = 0; i < rowCount; i++) offsets[groupOfRow[i]! + 1]!++;
  for (let g = 0; g < groupCount; g++) offsets[g + 1]! += offsets[g]!;
  const cursor = offsets.slice(0, groupCount);
  const rowsByGroup = new Uint32Array(rowCount);
  for (let i = 0; i < rowCount; i++) rowsByGroup[cursor[groupOfRow[i]!]!++] = i;
  return { groupCount, groupOfRow, offsets, rowsByGroup };
}

export function groupSize(grouping: Grouping, g: number): number {
  return grouping.offsets[g + 1]! - grouping.offsets[g]!;
}
