import type { ReleaseRows } from '../../common/table/release-rows.js';
import type { ReleaseColumn, ReleaseTable } from '../../io/output/release-table.js';
import type { SensitiveAnalysis } from './analyze.js';
import type { Plan } from './plan.js';

export const TEST_STAMP_COLUMN = 'NOT_A_PROTECTED_RELEASE';
export const TEST_STAMP_VALUE = 'test randomness: not a protected release';

/** A released table with the test-randomness stamp as its first column, on every row. */
export function stamped(table: ReleaseTable): ReleaseTable {
  const stamp: ReleaseColumn = { name: TEST_STAMP_COLUMN, dictionary: [TEST_STAMP_VALUE], codes: new Uint32Array(table.rowCount), via: null, numeric: false };
  return { rowCount: table.rowCount, columns: [stamp, ...table.columns] };
}

/**
 * The released table in input column order: identifiers dropped, non-sensitive
 * columns read through sourceRow, the given sensitive columns from the release.
 */
export function releaseView(plan: Plan, rows: ReleaseRows, included: readonly SensitiveAnalysis[]): ReleaseTable {
  const rowCount = rows.sourceRow.length;
  const columns: ReleaseColumn[] = [];
  for (const { column, role } of plan.columns) {
    if (role === 'identifier') continue;
    if (role === 'sensitive') {
      const k = included.findIndex((s) => s.column === column);
      if (k < 0) continue;
      const domain = included[k]!.domain;
      columns.push({ name: column.name, dictionary: domain.values, codes: rows.sensitive[k]!, via: null, numeric: column.type !== 'text' });
      continue;
    }
    columns.push({
      name: column.name,
      dictionary: column.dictionary,
      codes: column.codes,
      via: rows.sourceRow,
      numeric: column.type === 'integer' || column.type === 'decimal',
    });
  }
  return { rowCount, columns };
}
