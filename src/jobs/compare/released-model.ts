import { bucketColumn, coveringColumn, randomizedColumn, textColumn, withheldColumn, type BucketEntry, type ReleasedColumn, type ReleasedRecords } from '../../common/compare/released-records.js';
import type { Column, Table } from '../../common/table/table.js';
import type { ReleaseColumn, ReleaseTable } from '../../io/output/release-table.js';
import type { MethodOutcome } from '../method-kit/outcome.js';

/** Each released record's code in a released column, whether it points into the input or not. */
function recordCodes(column: ReleaseColumn, rows: number): Uint32Array {
  const out = new Uint32Array(rows);
  const via = column.via;
  for (let i = 0; i < rows; i++) out[i] = column.codes[via ? via[i]! : i]!;
  return out;
}

function columnOf(table: ReleaseTable, name: string): ReleaseColumn | undefined {
  return table.columns.find((c) => c.name === name);
}

/**
 * A released column against the input's: when its codes are kept per input
 * row (it points into the input through `via`), each released value covers the
 * input values of the rows that carry it (a value as collected covers itself, a
 * generalized one every value it generalizes); otherwise values are matched by text.
 */
function plainColumn(truth: Column, released: ReleaseColumn, table: ReleaseTable, inputRows: number): ReleasedColumn {
  const codes = recordCodes(released, table.rowCount);
  if (released.via && released.codes.length === inputRows) return coveringColumn(truth.codes, released.codes, truth.dictionary.length, released.dictionary.length, codes);
  return textColumn(truth.dictionary, released.dictionary, codes);
}

/** The sensitive table of a bucketization (bucket, value, count) as entries, buckets counted from 0. */
function bucketEntries(st: ReleaseTable, sensitive: string): { entries: BucketEntry[]; buckets: number } {
  const bucket = recordCodes(columnOf(st, 'bucket')!, st.rowCount);
  const value = recordCodes(columnOf(st, sensitive)!, st.rowCount);
  const count = recordCodes(columnOf(st, 'count')!, st.rowCount);
  const b = columnOf(st, 'bucket')!.dictionary;
  const v = columnOf(st, sensitive)!.dictionary;
  const c = columnOf(st, 'count')!.dictionary;
  const entries: BucketEntry[] = [];
  let buckets = 0;
  for (let i = 0; i < st.rowCount; i++) {
    const id = Number(b[bucket[i]!]) - 1;
    buckets = Math.max(buckets, id + 1);
    entries.push({ bucket: id, value: v[value[i]!]!, count: Number(c[count[i]!]) });
  }
  return { entries, buckets };
}

/**
 * The candidate's release as the common pool reads it. Randomized-response
 * releases count their sensitive columns through the estimator; β-privacy's
 * sensitive column is read from its sensitive table by bucket; a release of
 * several tables is read from its first (reconstruction privacy with several
 * sensitive columns: the other sensitive columns count as withheld); a sample
 * counts each record 1/β times.
 */
export function releasedRecords(outcome: MethodOutcome, truth: Table, poolColumns: readonly Column[]): ReleasedRecords {
  const type = outcome.method.type;
  const main = outcome.releases[0]!.table;
  const records = main.rowCount;
  const randomized = new Map((outcome.risk.bySensitive ?? []).map((s) => [s.column, s]));
  const bucketed = type === 'beta-privacy' && outcome.beta && outcome.releases[1] ? outcome.beta.sensitive : undefined;
  const columns = poolColumns.map((truthColumn): ReleasedColumn => {
    if (bucketed === truthColumn.name) {
      const qitBucket = recordCodes(columnOf(main, 'bucket')!, records);
      const dictionary = columnOf(main, 'bucket')!.dictionary;
      const bucketOf = Uint32Array.from(qitBucket, (code) => Number(dictionary[code]) - 1);
      const { entries, buckets } = bucketEntries(outcome.releases[1]!.table, bucketed);
      return bucketColumn(truthColumn.dictionary, bucketOf, buckets, entries);
    }
    const released = columnOf(main, truthColumn.name);
    if (!released) return withheldColumn(records, truthColumn.distinct);
    const sensitive = (type === 'uniform-perturbation' || type === 'reconstruction-privacy') ? randomized.get(truthColumn.name) : undefined;
    if (sensitive) return randomizedColumn(truthColumn.dictionary, released.dictionary, recordCodes(released, records), sensitive.retention, sensitive.domainSize);
    return plainColumn(truthColumn, released, main, truth.rowCount);
  });
  const sampling = outcome.anonymity?.sampling;
  return { records, scale: sampling !== undefined && sampling > 0 ? 1 / sampling : 1, columns };
}
