import { countBy, tupleKeys, writtenForm } from '../../../jobs/method-kit/released-table.js';
import type { VerifyContext } from '../../../jobs/method-kit/node-mechanism.js';
import { resolveRoles } from '../../../jobs/method-kit/plan.js';
import { releasedRecords } from '../../../jobs/method-kit/verify-classes.js';
import type { Table } from '../../../common/table/table.js';
import type { MicroaggregationSpec } from '../definition.js';
import { standardize } from '../mdav.js';
import { algorithmOf } from '../partitioned.js';
import { decimalText, exactGroupValues } from '../exact.js';
import { aggregatedValues, formGroups } from './run.js';

/**
 * MDAV is deterministic: the original gives the groups, their values and so the whole release,
 * which must be the released records in some order (aggregated values compared as numbers, every
 * other column as the format wrote it).
 */
function checkRecomputed(ctx: VerifyContext, spec: MicroaggregationSpec, release: Table): void {
  const name = 'release recomputed from the original';
  const original = ctx.original;
  if (!original) {
    ctx.checks.notChecked(name, '--original: MDAV is rerun on it and every released record compared');
    return;
  }
  const n = original.rowCount;
  const plan = resolveRoles(ctx.job, original, { requireSensitive: false });
  const chosen = spec.columns.map((c) => original.columns.find((x) => x.name === c)!);
  // The run's own path: MDAV on the doubles, each group's value exact from the decimals as written.
  const columnValues = chosen.map((c) => aggregatedValues(c, n));
  const partition = formGroups(algorithmOf(spec), standardize(columnValues.map((c) => c.values), n), n, chosen.length, spec.k);
  const aggregated = new Map(chosen.map((c, j) => [c.name, exactGroupValues(columnValues[j]!.exact, partition, spec.aggregation, spec.decimals).map((v) => String(Number(decimalText(v, spec.decimals))))]));
  const released = plan.columns.filter((c) => c.role !== 'identifier').map((c) => c.column);
  const form = writtenForm(ctx.dir, 'release');
  const expected = countBy(
    Array.from({ length: n }, (_, r) =>
      released.map((c) => {
        const groupValues = aggregated.get(c.name);
        return groupValues ? groupValues[partition.groupOf[r]!]! : form(c.dictionary[c.codes[r]!]!);
      }).join('\u0000'),
    ),
  );
  const aggregatedNames = new Set(spec.columns);
  const releasedColumns = released.map((c) => release.columns.find((x) => x.name === c.name));
  if (releasedColumns.some((c) => c === undefined) || release.columns.length !== released.length) {
    ctx.checks.add(name, false, `the released columns are not the input's non-identifier columns (${released.map((c) => c.name).join(', ')})`);
    return;
  }
  const got = countBy(
    Array.from({ length: release.rowCount }, (_, r) =>
      releasedColumns.map((c) => {
        const v = c!.dictionary[c!.codes[r]!]!;
        return aggregatedNames.has(c!.name) ? String(Number(v)) : v;
      }).join('\u0000'),
    ),
  );
  const differing = [...new Set([...expected.keys(), ...got.keys()])].filter((k) => expected.get(k) !== got.get(k)).length;
  ctx.checks.add(
    name,
    differing === 0 && release.rowCount === n,
    differing === 0 && release.rowCount === n
      ? `${algorithmOf(spec).kind === 'mdav' ? 'MDAV' : 'partitioned MDAV'} rerun on the original (${partition.count} groups of ${n} records): every released record is its record with its group's ${spec.aggregation}`
      : `${differing} distinct record(s) differ from the release the job's algorithm gives on the original (${release.rowCount} released, ${n} in the original)`,
  );
}

/**
 * k re-checked from the released file alone: the records that share their released values of the
 * aggregated columns must number at least k, and those values must be numbers. Values are compared
 * as numbers ("37.4" and "37.40" are one value), as a reader of the release would.
 */
export function verifyMicroaggregation(ctx: VerifyContext, spec: MicroaggregationSpec): void {
  const { checks } = ctx;
  const { release } = releasedRecords(ctx);
  checkRecomputed(ctx, spec, release);
  const missing = spec.columns.filter((name) => !release.columns.some((c) => c.name === name));
  checks.add('aggregated columns released', missing.length === 0, missing.length === 0 ? `${spec.columns.join(', ')} in the release` : `not in the release: ${missing.join(', ')}`);
  if (missing.length > 0) return;
  const notNumbers = spec.columns.filter((name) => release.columns.find((c) => c.name === name)!.dictionary.slice(1).some((v) => !Number.isFinite(Number(v)) || v.trim() === '') || release.columns.find((c) => c.name === name)!.missing > 0);
  checks.add('aggregated values are numbers', notNumbers.length === 0, notNumbers.length === 0 ? 'every released value of the aggregated columns is a number' : `not numbers throughout: ${notNumbers.join(', ')}`);
  const classes = countBy(tupleKeys(release, spec.columns, (v) => String(Number(v))));
  const sizes = [...classes.values()];
  const small = sizes.filter((s) => s < spec.k);
  const smallest = sizes.reduce((a, b) => Math.min(a, b), Infinity);
  checks.add(
    `k = ${spec.k} on the aggregated columns`,
    small.length === 0 && sizes.length > 0,
    small.length === 0 ? `${classes.size} released combinations of ${spec.columns.join(', ')}, the smallest shared by ${smallest} ≥ k = ${spec.k} records` : `${small.length} combination(s) shared by fewer than k = ${spec.k} records`,
  );
}
