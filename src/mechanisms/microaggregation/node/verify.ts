import { countBy, tupleKeys } from '../../../jobs/method-kit/released-table.js';
import type { VerifyContext } from '../../../jobs/method-kit/node-mechanism.js';
import { releasedRecords } from '../../../jobs/method-kit/verify-classes.js';
import type { MicroaggregationSpec } from '../definition.js';

/**
 * k re-checked from the released file alone: the records that share their released values of the
 * aggregated columns must number at least k, and those values must be numbers. Values are compared
 * as numbers ("37.4" and "37.40" are one value), as a reader of the release would.
 */
export function verifyMicroaggregation(ctx: VerifyContext, spec: MicroaggregationSpec): void {
  const { checks } = ctx;
  const { release } = releasedRecords(ctx);
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
