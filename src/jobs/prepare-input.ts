import { basename } from 'node:path';
import { own } from '../common/job/names.js';
import { describeFormats } from '../common/table/date-text.js';
import { readDateColumns } from '../io/input/date-columns.js';
import { treatMissingSensitive } from '../common/table/missing-sensitive.js';
import type { ImportedTable } from '../io/input/import-types.js';
import type { Job } from '../mechanisms/definitions.js';
import { JobError } from '../common/job/job-error.js';

/** The columns the job treats as sensitive: those its attributes mark, and the one a method names itself. */
export function sensitiveColumns(job: Job): string[] {
  const named = Object.keys(job.attributes).filter((name) => own(job.attributes, name) === 'sensitive');
  const methodNamed = 'sensitive' in job.method && typeof job.method.sensitive === 'string' ? [job.method.sensitive] : [];
  return [...new Set([...named, ...methodNamed])];
}

/** The columns the job's method generalizes with the date hierarchy: their values must be dates. */
function dateHierarchyColumns(job: Job): Set<string> {
  const hierarchies = 'hierarchies' in job.method ? job.method.hierarchies : undefined;
  return new Set(hierarchies ? Object.keys(hierarchies).filter((name) => { const spec = own(hierarchies, name); return typeof spec === 'object' && spec.type === 'date'; }) : []);
}

/**
 * The table a mechanism sees: the input as read, with dates typed as text made ISO dates
 * (input.dates, or the format every value of a column fits) and the job's treatment of missing
 * sensitive values applied. Run and verify both go through here, so an auditor's re-check reads the
 * input exactly as the run did.
 */
export function prepareInput(job: Job, read: ImportedTable): ImportedTable {
  const imported = readDates(job, read);
  const { table, excluded } = treatMissingSensitive(imported.table, sensitiveColumns(job), job.input.missingSensitive);
  return table === imported.table ? imported : { ...imported, table, ...(excluded > 0 ? { excludedMissingSensitive: excluded } : {}) };
}

/** The input with its dates typed as text made ISO dates, as prepareInput reads them; an ambiguous column is refused naming its key. */
export function readDates(job: Job, read: ImportedTable): ImportedTable {
  const stated = job.input.dates;
  const names = new Set(read.table.columns.map((c) => c.name));
  for (const name of Object.keys(stated ?? {})) if (!names.has(name)) throw new JobError(`the input has no column "${name}"`, `input.dates.${name}`);
  const dated = readDateColumns(read, basename(job.input.path), stated, dateHierarchyColumns(job));
  const first = dated.ambiguous[0];
  if (first) {
    const others = dated.ambiguous.length > 1 ? ` (as are the dates of ${dated.ambiguous.slice(1).map((a) => `"${a.column}"`).join(', ')})` : '';
    throw new JobError(
      `the dates of "${first.column}" can be read day first or month first (no day in them is above 12)${others}: say which with input.dates.${first.column}: ${describeFormats(first.formats)}, or "text" to keep them as typed`,
      `input.dates.${first.column}`,
    );
  }
  return dated.imported;
}
