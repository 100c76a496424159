import type { ColumnInfo, CustosApi, OpenedFile } from '../../common/ipc/api.js';

/** A column's values with their record counts (missing values left out), and whether every value is there. */
export interface ColumnValues {
  readonly counts: ReadonlyMap<string, number>;
  readonly complete: boolean;
}

/** Records read page by page to list a column's values when its summary lists only the most frequent ones. */
export const MAX_ROWS_PAGED = 200_000;
const PAGE = 2000;

/** The values the column's summary lists: all of them when the column has few (up to 200), else the most frequent. */
export function summaryValues(info: ColumnInfo): ColumnValues {
  return { counts: new Map(info.top.map((t) => [t.value, t.count])), complete: info.distinct <= info.top.length };
}

/**
 * Every value of a column with its count: from the summary when it lists them all, else read from
 * the host's table a page at a time (up to MAX_ROWS_PAGED records; beyond, the summary's most
 * frequent values, marked incomplete). The values are those the run sees: dates already ISO dates.
 */
export async function loadColumnValues(rows: CustosApi['rows'] | undefined, file: OpenedFile, info: ColumnInfo): Promise<ColumnValues> {
  const summary = summaryValues(info);
  if (summary.complete || !rows || file.rows > MAX_ROWS_PAGED) return summary;
  const index = file.columns.findIndex((c) => c.name === info.name);
  const counts = new Map<string, number>();
  for (let offset = 0; offset < file.rows; offset += PAGE) {
    const page = await rows({ fileId: file.fileId, offset, count: Math.min(PAGE, file.rows - offset) });
    if (!page.ok) return summary;
    for (const row of page.value) {
      const v = row[index];
      if (v === undefined || v === '') continue;
      counts.set(v, (counts.get(v) ?? 0) + 1);
    }
  }
  return { counts, complete: true };
}
