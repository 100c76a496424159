/**
 * The figures of the Results step's before/after view, as pure functions: a column's distribution
 * from its summary, and the contingency table of two columns from rows. The input side is
 * confidential: it is computed and shown in the app only, never written anywhere.
 */
import type { ColumnInfo } from '../../common/ipc/api.js';

export interface Share {
  readonly value: string;
  readonly count: number;
  readonly share: number;
}

/** A column's most frequent values with their share of the records (missing values counted apart). */
export function distributionOf(info: ColumnInfo, records: number, limit = 12): { shares: Share[]; others: number } {
  const shown = info.top.slice(0, limit);
  const listed = shown.reduce((s, t) => s + t.count, 0);
  const shares = shown.map((t) => ({ value: t.value, count: t.count, share: records > 0 ? t.count / records : 0 }));
  return { shares, others: Math.max(0, records - info.missing - listed) };
}

export const OTHER = '(others)';
export const MISSING = '(missing)';

export interface CrossTable {
  readonly rows: readonly string[];
  readonly columns: readonly string[];
  /** counts[r][c] */
  readonly counts: readonly (readonly number[])[];
  readonly total: number;
}

/**
 * The contingency table of two columns: the `limit` most frequent values of each as rows and
 * columns, the rest gathered as "(others)", missing values as "(missing)".
 */
export function crossTable(records: readonly (readonly string[])[], a: number, b: number, limit = 8): CrossTable {
  const label = (v: string | undefined) => (v === undefined || v === '' ? MISSING : v);
  const freq = (i: number) => {
    const m = new Map<string, number>();
    for (const r of records) m.set(label(r[i]), (m.get(label(r[i])) ?? 0) + 1);
    return m;
  };
  const keep = (m: Map<string, number>) => {
    const sorted = [...m].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1));
    const kept = sorted.slice(0, limit).map(([v]) => v);
    return sorted.length > limit ? [...kept, OTHER] : kept;
  };
  const rows = keep(freq(a));
  const columns = keep(freq(b));
  const rowIndex = new Map(rows.map((v, i) => [v, i]));
  const colIndex = new Map(columns.map((v, i) => [v, i]));
  const counts = rows.map(() => columns.map(() => 0));
  for (const r of records) {
    const i = rowIndex.get(label(r[a])) ?? rowIndex.get(OTHER)!;
    const j = colIndex.get(label(r[b])) ?? colIndex.get(OTHER)!;
    counts[i]![j]!++;
  }
  return { rows, columns, counts, total: records.length };
}
