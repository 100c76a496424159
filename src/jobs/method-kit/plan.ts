import type { Column, Table } from '../../common/table/table.js';
import { JobError } from '../../common/job/job-error.js';
import type { JobShell } from '../../common/job/job-parts.js';
import type { Role } from '../../common/job/job-parts.js';
import { own } from '../../common/job/names.js';

export interface ColumnPlan {
  readonly column: Column;
  readonly role: Role;
  /** Not named in the job: treated as a quasi-identifier, the conservative default. */
  readonly defaulted: boolean;
}

export interface Plan {
  readonly columns: readonly ColumnPlan[];
  /** Every released non-sensitive column (quasi-identifiers and insensitive): micro groups use them all. */
  readonly nonSensitive: readonly Column[];
  readonly sensitive: readonly Column[];
}

/**
 * Whether the quasi-identifiers are every non-sensitive column (none is insensitive): the micro
 * groups are then their classes. Quasi-identifiers are non-sensitive columns, so as many of them
 * means the same columns.
 */
export function quasiAreNonSensitive(plan: Plan): boolean {
  return plan.columns.filter((c) => c.role === 'quasi').length === plan.nonSensitive.length;
}

/** A column's role: the one the job gives it, or quasi-identifier when the job does not name it. */
export function roleOf(job: Pick<JobShell, 'attributes'>, column: string): Role {
  return own(job.attributes, column) ?? 'quasi';
}

export function resolveRoles(job: Pick<JobShell, 'attributes'>, table: Table, options: { requireSensitive: boolean } = { requireSensitive: true }): Plan {
  const names = new Set(table.columns.map((c) => c.name));
  for (const name of Object.keys(job.attributes)) {
    if (!names.has(name)) {
      const list = table.columns.map((c) => JSON.stringify(c.name)).join(', ');
      throw new JobError(`the input has no column "${name}"; its columns are ${list}`, `attributes.${name}`);
    }
  }
  const columns = table.columns.map((column): ColumnPlan => ({ column, role: roleOf(job, column.name), defaulted: own(job.attributes, column.name) === undefined }));
  const sensitive = columns.filter((c) => c.role === 'sensitive').map((c) => c.column);
  if (sensitive.length === 0 && options.requireSensitive) {
    throw new JobError('mark at least one column as "sensitive": it is the attribute the method protects', 'attributes');
  }
  const nonSensitive = columns.filter((c) => c.role === 'quasi' || c.role === 'insensitive').map((c) => c.column);
  return { columns, nonSensitive, sensitive };
}
