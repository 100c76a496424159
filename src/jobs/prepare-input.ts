import { own } from '../common/job/names.js';
import { treatMissingSensitive } from '../common/table/missing-sensitive.js';
import type { ImportedTable } from '../io/input/import-types.js';
import type { Job } from '../mechanisms/definitions.js';

/** The columns the job treats as sensitive: those its attributes mark, and the one a method names itself. */
export function sensitiveColumns(job: Job): string[] {
  const named = Object.keys(job.attributes).filter((name) => own(job.attributes, name) === 'sensitive');
  const methodNamed = 'sensitive' in job.method && typeof job.method.sensitive === 'string' ? [job.method.sensitive] : [];
  return [...new Set([...named, ...methodNamed])];
}

/**
 * The table a mechanism sees: the input as read, with the job's treatment of
 * missing sensitive values applied. Run and verify both go through here, so an
 * auditor's re-check reads the input exactly as the run did.
 */
export function prepareInput(job: Job, imported: ImportedTable): ImportedTable {
  const { table, excluded } = treatMissingSensitive(imported.table, sensitiveColumns(job), job.input.missingSensitive);
  return table === imported.table ? imported : { ...imported, table, ...(excluded > 0 ? { excludedMissingSensitive: excluded } : {}) };
}
