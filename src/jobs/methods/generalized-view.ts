import type { GeneralizedColumn } from '../../engine/anonymity/hierarchy.js';
import type { ReleaseColumn, ReleaseTable } from '../../io/output/release-table.js';
import { TEST_STAMP_COLUMN, TEST_STAMP_VALUE } from './release-view.js';

/** Released generalized records (input rows by reference), plus an optional part column. */
export function generalizedView(
  columns: readonly (GeneralizedColumn & { numeric?: boolean })[],
  rows: Uint32Array,
  testStamp: boolean,
  part?: { readonly ofRow: ArrayLike<number>; readonly count: number },
): ReleaseTable {
  const out: ReleaseColumn[] = testStamp ? [{ name: TEST_STAMP_COLUMN, dictionary: [TEST_STAMP_VALUE], codes: new Uint32Array(rows.length), via: null, numeric: false }] : [];
  if (part) {
    const codes = new Uint32Array(rows.length);
    for (let i = 0; i < rows.length; i++) codes[i] = part.ofRow[rows[i]!]!;
    out.push({ name: 'part', dictionary: Array.from({ length: part.count }, (_, p) => String(p + 1)), codes, via: null, numeric: true });
  }
  for (const c of columns) out.push({ name: c.name, dictionary: c.dictionary, codes: c.codes, via: rows, numeric: c.numeric ?? false });
  return { rowCount: rows.length, columns: out };
}
