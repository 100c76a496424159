import type { Table } from '../../common/table/table.js';
import { readReleased } from './released-table.js';
import type { VerifyContext } from './node-mechanism.js';

/**
 * A recoding's released records read back as an auditor would, with the checks every recoding
 * shares: the record count the report gives, and no identifier column (`added`: the columns the
 * method makes itself). Returns the release and each input column's role.
 */
export function releasedRecords(ctx: VerifyContext, added: readonly string[] = []): { release: Table; roles: Map<string, string> } {
  const { checks, report, dir, job } = ctx;
  const table = ctx.quasiTable ?? { stem: 'release', sheetName: 'Release' };
  const release = readReleased(dir, table.stem, table.sheetName, job.output.delimiter);
  const roles = new Map<string, string>(report.input.columns.map((c) => [c.name, c.role]));
  checks.add('record count', release.rowCount === report.output?.rows, `${release.rowCount} released records (report: ${report.output?.rows})`);
  // In a chain the table is the second step's, with its own columns: that step's checks cover them.
  if (!ctx.quasiTable) checks.add(...identifierCheck(ctx, release, added));
  return { release, roles };
}

/**
 * No identifier released. The published report lists the released columns only (an identifier's
 * name is not published), so a released column it does not list fails, as does one the internal
 * report, when at hand, marks as an identifier. `added`: columns the method makes itself.
 */
export function identifierCheck(ctx: Pick<VerifyContext, 'report' | 'internal'>, release: Table, added: readonly string[]): [string, boolean, string] {
  const listed = new Set([...ctx.report.input.columns.filter((c) => c.role !== 'identifier').map((c) => c.name), ...added]);
  const identifiers = new Set((ctx.internal?.input.columns ?? ctx.report.input.columns).filter((c) => c.role === 'identifier').map((c) => c.name));
  const wrong = release.columns.filter((c) => identifiers.has(c.name) || !listed.has(c.name)).map((c) => c.name);
  return ['no identifier released', wrong.length === 0, wrong.length === 0 ? 'every released column is one the report lists as released' : `released but not listed as a released column: ${wrong.join(', ')}`];
}
