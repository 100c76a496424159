/**
 * A released table described by references into dictionary-encoded data:
 * the value of column c at row r is c.dictionary[c.codes[c.via ? c.via[r] : r]].
 * Non-sensitive columns point into the input through `via`; nothing is
 * materialized per row until a writer formats it.
 */
export interface ReleaseColumn {
  readonly name: string;
  readonly dictionary: readonly string[];
  readonly codes: Uint32Array;
  readonly via: Uint32Array | null;
  /** Write numbers as numbers in workbooks. */
  readonly numeric: boolean;
}

export interface ReleaseTable {
  readonly rowCount: number;
  readonly columns: readonly ReleaseColumn[];
}

export function cellCode(column: ReleaseColumn, row: number): number {
  return column.codes[column.via ? column.via[row]! : row]!;
}
