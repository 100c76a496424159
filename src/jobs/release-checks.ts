import type { Table } from '../common/table/table.js';
import { codeBlocks, type ReleaseTable } from '../io/output/release-table.js';
import type { Job } from '../mechanisms/definitions.js';
import { nodeMechanismOf } from '../mechanisms/node-registry.js';
import { JobError } from '../common/job/job-error.js';
import type { MethodOutcome } from './method-kit/outcome.js';
import { formatCount } from '../common/format/numbers.js';

/**
 * Two releases a custodian must not publish unawares, caught before anything is written: a
 * recoding that deleted every record, and a release that is the input itself.
 */

/**
 * A recoding release (safe k-anonymity, partitioned or global recoding: the methods that delete
 * the records of failing classes) with no records is refused: it meets any model trivially and
 * publishes nothing (k above every class, or above the input's records, with a suppression limit
 * that allows deleting them all, was released as an empty file that verify passed).
 */
export function refuseEmptyRecoding(job: Job, input: Table, outcome: MethodOutcome): void {
  const key = nodeMechanismOf(job.method.type).emptyReleaseKey;
  if (key === null || outcome.anonymity === undefined || input.rowCount === 0) return;
  if (outcome.releases.length === 0 || outcome.releases.some((r) => r.table.rowCount > 0)) return;
  throw new JobError(
    `the release would hold no records: all ${formatCount(input.rowCount)} records of the input were deleted with classes that fail the model, and a release with no records publishes nothing while meeting any model trivially. Lower k (${key}) below the size of the classes this data can form, generalize more, or lower the suppression limit so that records must be kept`,
    key,
  );
}

/**
 * Whether the release is the input itself: the same columns in the same order and every record
 * the input's, unchanged (parameters that change nothing: level 0 everywhere, nothing deleted),
 * whatever the order of the rows (a recoding releases them class by class). Compared code by code
 * through each column's dictionary, row for row first, then as a multiset of records.
 */
export function releaseIsInput(release: ReleaseTable, input: Table): boolean {
  if (release.rowCount !== input.rowCount || release.columns.length !== input.columns.length) return false;
  // For each released column, the input's code of each of its dictionary's values (-1: a value the input lacks).
  const inputCodes: Int32Array[] = [];
  for (let j = 0; j < release.columns.length; j++) {
    const column = release.columns[j]!;
    const original = input.columns[j]!;
    if (column.name !== original.name) return false;
    const codeOf = new Map(original.dictionary.map((value, code) => [value, code]));
    const map = Int32Array.from(column.dictionary, (value) => codeOf.get(value) ?? -1);
    // A value the input does not hold (a generalization, "*") that some row releases: changed. Checked by the rows below.
    inputCodes.push(map);
  }
  let inOrder = true;
  for (const block of codeBlocks(release)) {
    for (let j = 0; j < release.columns.length && inOrder; j++) {
      const codes = block.codes[j]!;
      const map = inputCodes[j]!;
      const original = input.columns[j]!.codes;
      for (let i = 0; i < block.count; i++) {
        if (map[codes[i]!]! < 0) return false;
        if (map[codes[i]!] !== original[block.start + i]) {
          inOrder = false;
          break;
        }
      }
    }
    if (!inOrder) break;
  }
  if (inOrder) return true;
  // A released value the input never holds (a generalized one) settles it without a key per record:
  // the row-for-row pass stops at the first reordered row, often before the recoded column.
  for (const block of codeBlocks(release)) {
    for (let j = 0; j < release.columns.length; j++) {
      const codes = block.codes[j]!;
      const map = inputCodes[j]!;
      for (let i = 0; i < block.count; i++) if (map[codes[i]!]! < 0) return false;
    }
  }
  // The same records in another order: count the input's records, then take the release's away.
  const key = (codes: readonly number[]): string => codes.join(',');
  const counts = new Map<string, number>();
  const row = new Array<number>(input.columns.length);
  for (let r = 0; r < input.rowCount; r++) {
    for (let j = 0; j < input.columns.length; j++) row[j] = input.columns[j]!.codes[r]!;
    const k = key(row);
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  for (const block of codeBlocks(release)) {
    for (let i = 0; i < block.count; i++) {
      for (let j = 0; j < release.columns.length; j++) row[j] = inputCodes[j]![block.codes[j]![i]!]!;
      const k = key(row);
      const left = counts.get(k) ?? 0;
      if (left === 0) return false;
      counts.set(k, left - 1);
    }
  }
  return true;
}

/** The warning for a release that is the input itself (internal report, command line, app). */
export const RELEASE_IS_INPUT_WARNING =
  'NOTHING WAS CHANGED: the release holds every record of the input as it is, every value unchanged (at most the order of the rows differs): these parameters change nothing. Publishing it publishes the confidential data as it is; check that the input already meets the guarantee as intended, or choose parameters that protect it.';

/**
 * The method's outcome, checked: an empty recoding refused (the measuring still under way is
 * stopped), and a release that is the input itself warned of, in the outcome and in its settled form.
 */
export function checkedRelease(job: Job, input: Table, outcome: MethodOutcome): MethodOutcome {
  try {
    refuseEmptyRecoding(job, input, outcome);
  } catch (error) {
    outcome.pending?.abandon();
    throw error;
  }
  const first = outcome.releases[0];
  if (!nodeMechanismOf(job.method.type).deterministic || outcome.releases.length !== 1 || !first || !releaseIsInput(first.table, input)) return outcome;
  const warned = (of: MethodOutcome): MethodOutcome => ({ ...of, warnings: [RELEASE_IS_INPUT_WARNING, ...of.warnings] });
  const { pending } = outcome;
  return { ...warned(outcome), ...(pending ? { pending: { settle: () => warned(pending.settle()), abandon: () => pending.abandon() } } : {}) };
}
