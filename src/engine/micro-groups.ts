import type { Column } from './table.js';

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

const SAFE_KEY_LIMIT = 2 ** 52;

export function groupRows(columns: readonly Column[], rowCount: number): Grouping {
  const groupOfRow = new Uint32Array(rowCount);
  let groupCount = rowCount > 0 ? 1 : 0;
  if (columns.length > 0) {
    // Mixed-radix keys while they stay exact in a double; re-number through a
    // Map whenever the next column would overflow, so any width works.
    const keys = new Float64Array(rowCount);
    let radix = 1;
    const compact = (): void => {
      const ids = new Map<number, number>();
      for (let i = 0; i < rowCount; i++) {
        const k = keys[i]!;
        let id = ids.get(k);
        if (id === undefined) {
          id = ids.size;
          ids.set(k, id);
        }
        keys[i] = id;
      }
      radix = Math.max(ids.size, 1);
    };
    for (const column of columns) {
      const base = column.dictionary.length;
      if (radix * base >= SAFE_KEY_LIMIT) compact();
      const codes = column.codes;
      for (let i = 0; i < rowCount; i++) keys[i] = keys[i]! * base + codes[i]!;
      radix *= base;
    }
    const ids = new Map<number, number>();
    for (let i = 0; i < rowCount; i++) {
      const k = keys[i]!;
      let id = ids.get(k);
      if (id === undefined) {
        id = ids.size;
        ids.set(k, id);
      }
      groupOfRow[i] = id;
    }
    groupCount = ids.size;
  }
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
