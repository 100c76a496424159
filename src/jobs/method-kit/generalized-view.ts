import type { GeneralizedColumn } from '../../common/recoding/hierarchy.js';
import type { ReleaseColumn, ReleaseTable } from '../../io/output/release-table.js';

/**
 * Whether a generalized column is released as numbers (typed cells in workbooks, numbers in SPSS and
 * Stata files): an input column of numbers kept as collected, or generalized into values that are all
 * plain numbers (rounding: 37 → 35), never into ranges or "*".
 */
export function releasedAsNumbers(column: GeneralizedColumn, inputNumeric: boolean, level: number): boolean {
  if (!inputNumeric) return false;
  if (level === 0) return true;
  return column.dictionary.every((value) => value === '' || String(Number(value)) === value);
}

/** Released generalized records (input rows by reference), plus an optional part column. */
export function generalizedView(
  columns: readonly (GeneralizedColumn & { numeric?: boolean })[],
  rows: Uint32Array,
  part?: { readonly ofRow: ArrayLike<number>; readonly count: number },
): ReleaseTable {
  const out: ReleaseColumn[] = [];
  if (part) {
    const codes = new Uint32Array(rows.length);
    for (let i = 0; i < rows.length; i++) codes[i] = part.ofRow[rows[i]!]!;
    out.push({ name: 'part', dictionary: Array.from({ length: part.count }, (_, p) => String(p + 1)), codes, via: null, numeric: true });
  }
  for (const c of columns) out.push({ name: c.name, dictionary: c.dictionary, codes: c.codes, via: rows, numeric: c.numeric ?? false });
  return { rowCount: rows.length, columns: out };
}
