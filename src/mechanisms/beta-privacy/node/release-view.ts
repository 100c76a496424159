import type { Bucketization } from '../bucketize.js';
import type { ReleaseColumn, ReleaseTable } from '../../../io/output/release-table.js';
import type { Plan } from '../../../jobs/method-kit/plan.js';

/** Codes for a column of whole numbers: dictionary = the distinct values as text. */
function numberColumn(name: string, values: Uint32Array, via: Uint32Array | null): ReleaseColumn {
  const distinct = [...new Set(values)].sort((a, b) => a - b);
  const index = new Map(distinct.map((v, i) => [v, i]));
  const codes = Uint32Array.from(values, (v) => index.get(v)!);
  return { name, dictionary: distinct.map(String), codes, via, numeric: true };
}

/** QIT: every non-sensitive released column plus the bucket id (1-based), rows in the given random order. */
export function quasiIdentifierTable(plan: Plan, b: Bucketization, order: Uint32Array): ReleaseTable {
  const columns: ReleaseColumn[] = [];
  for (const { column, role } of plan.columns) {
    if (role !== 'quasi' && role !== 'insensitive') continue;
    columns.push({ name: column.name, dictionary: column.dictionary, codes: column.codes, via: order, numeric: column.type !== 'text' });
  }
  const ids = Uint32Array.from(b.bucketOfRow, (id) => id + 1);
  columns.push(numberColumn('bucket', ids, order));
  return { rowCount: order.length, columns };
}

/** ST: (bucket, sensitive value, count), sorted by bucket id then value. */
export function sensitiveTable(sensitiveName: string, domainValues: readonly string[], b: Bucketization): ReleaseTable {
  const rowCount = b.stValue.length;
  const bucketIds = new Uint32Array(rowCount);
  for (let bucket = 0; bucket < b.bucketCount; bucket++) bucketIds.fill(bucket + 1, b.stOffsets[bucket]!, b.stOffsets[bucket + 1]!);
  // Sort entries of a bucket by value text so their order reveals neither input order nor fake positions.
  const order = Uint32Array.from({ length: rowCount }, (_, i) => i).sort(
    (x, y) => bucketIds[x]! - bucketIds[y]! || (domainValues[b.stValue[x]!]! < domainValues[b.stValue[y]!]! ? -1 : 1),
  );
  const columns: ReleaseColumn[] = [numberColumn('bucket', bucketIds, order)];
  columns.push({ name: sensitiveName, dictionary: domainValues, codes: b.stValue, via: order, numeric: false });
  columns.push(numberColumn('count', b.stCount, order));
  return { rowCount, columns };
}
