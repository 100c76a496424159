/**
 * A bucketized release (Anatomy: a QI table with each record's bucket, a sensitive table of
 * bucket, value, count), as compare reads it and as the paper's adversary attacks it.
 */
import { bucketColumn, type BucketEntry, type ReleasedColumn } from '../../common/compare/released-records.js';
import type { Column } from '../../common/table/table.js';
import type { ReleaseTable } from '../../io/output/release-table.js';
import { columnOf, recordCodes } from './compare-kit.js';

function codesOf(table: ReleaseTable, name: string): { values: readonly string[]; codes: Uint32Array } {
  const column = table.columns.find((c) => c.name === name)!;
  const codes = new Uint32Array(table.rowCount);
  for (let i = 0; i < table.rowCount; i++) codes[i] = column.codes[column.via ? column.via[i]! : i]!;
  return { values: column.dictionary, codes };
}

/**
 * β-privacy: the adversary of the paper finds a target's bucket and guesses the
 * value the sensitive table lists most often there. A value listed at least
 * twice is real, so every record of the bucket holding it is recovered; when
 * every value is listed once (some of them fakes), the guess is right for one
 * record with probability real/listed. Returns the expected records recovered.
 */
export function bucketGuesses(st: ReleaseTable, fakesPerBucket: number): number {
  const bucket = codesOf(st, 'bucket');
  const count = codesOf(st, 'count');
  const most = new Map<string, number>();
  const listed = new Map<string, number>();
  const entries = new Map<string, number>();
  for (let i = 0; i < st.rowCount; i++) {
    const b = bucket.values[bucket.codes[i]!]!;
    const c = Number(count.values[count.codes[i]!]);
    most.set(b, Math.max(most.get(b) ?? 0, c));
    listed.set(b, (listed.get(b) ?? 0) + c);
    entries.set(b, (entries.get(b) ?? 0) + 1);
  }
  let recovered = 0;
  for (const [b, top] of most) {
    if (top >= 2) recovered += top;
    else recovered += Math.max(0, entries.get(b)! - fakesPerBucket) / entries.get(b)!;
  }
  return recovered;
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

/** The bucketized sensitive column, read from the sensitive table by each QI record's bucket (Anatomy's estimator). */
export function bucketedColumn(truthColumn: Column, qit: ReleaseTable, st: ReleaseTable): ReleasedColumn {
  const qitBucket = recordCodes(columnOf(qit, 'bucket')!, qit.rowCount);
  const dictionary = columnOf(qit, 'bucket')!.dictionary;
  const bucketOf = Uint32Array.from(qitBucket, (code) => Number(dictionary[code]) - 1);
  const { entries, buckets } = bucketEntries(st, truthColumn.name);
  return bucketColumn(truthColumn.dictionary, bucketOf, buckets, entries);
}
