import { riskProfile, type KnownClasses, type ProfileColumn, type ProfileOptions } from '../../common/risk/risk-profile.js';
import type { RiskProfileReport } from '../../common/report/report-model.js';
import type { Table } from '../../common/table/table.js';
import { releasedCodes, type ReleaseTable } from '../../io/output/release-table.js';
import type { ImportedTable } from '../../io/input/import-types.js';
import type { Job } from '../../mechanisms/definitions.js';
import { samplingFraction } from './population.js';
import type { GroupedTable, TupleClasses } from './review-release.js';

/**
 * The internal report's risk profile (src/common/risk/risk-profile.ts): of the input in an assessment
 * (what the records risk as collected), of the first released table with quasi-identifiers in a run.
 * The population is the review's (review.populationSize or review.samplingFraction); sampling weights
 * are the input's case weight (an SPSS file's WEIGHT BY variable) wherever that column is present.
 * Confidential: the external report leaves `risk.profile` out.
 */

/** The sampling fraction of `records` records under the job's stated population, or undefined (none without records). */
function fractionOf(job: Job, records: number): number | undefined {
  return records === 0 && job.review?.samplingFraction === undefined ? undefined : samplingFraction(job.review, records, 'records');
}

/** The case weight column's values, when the input has one and the table holds it; undefined otherwise. */
function weightsOf(weightColumn: string | undefined, column: ProfileColumn | undefined, records: number): { column: string; values: Float64Array } | undefined {
  if (weightColumn === undefined || column === undefined) return undefined;
  const parsed = column.dictionary.map((v) => (v === '' ? Number.NaN : Number(v)));
  const values = new Float64Array(records);
  for (let r = 0; r < records; r++) values[r] = parsed[column.codes[r]!]!;
  return { column: weightColumn, values };
}

export function weightColumnOf(imported: ImportedTable): string | undefined {
  return imported.variables?.find((v) => v.weight === true)?.name;
}

/** The profile of the input's quasi-identifiers (an assessment). */
export function inputRiskProfile(job: Job, table: Table, quasi: readonly string[], weightColumn: string | undefined): RiskProfileReport {
  const byName = new Map(table.columns.map((c) => [c.name, c]));
  const columns = quasi.flatMap((name) => {
    const c = byName.get(name);
    return c ? [{ name, codes: c.codes, dictionary: c.dictionary }] : [];
  });
  const weights = weightsOf(weightColumn, weightColumn !== undefined ? byName.get(weightColumn) : undefined, table.rowCount);
  const fraction = fractionOf(job, table.rowCount);
  return { basis: 'input', ...riskProfile(columns, table.rowCount, { ...(fraction !== undefined ? { fraction } : {}), ...(weights ? { weights } : {}) }) };
}

/**
 * What the release's profile is computed from (a run; undefined when no released table holds a
 * quasi-identifier): the first released table holding one, its quasi-identifiers' codes gathered into
 * arrays (the run's gathering, releasedCodes, which a helper thread reads too, risk-profile-helper.ts).
 */
export function releaseProfileInput(job: Job, tables: readonly { readonly table: ReleaseTable }[], quasi: ReadonlySet<string>, weightColumn: string | undefined): { table: ReleaseTable; columns: ProfileColumn[]; records: number; options: ProfileOptions } | undefined {
  for (const { table } of tables) {
    const wanted = table.columns.flatMap((c, j) => (quasi.has(c.name) || c.name === weightColumn ? [j] : []));
    if (!wanted.some((j) => quasi.has(table.columns[j]!.name)) || table.rowCount === 0) continue;
    // The run's gathered codes (releasedCodes, in shared memory): a helper thread reads the same arrays.
    const gathered = releasedCodes(table);
    const codes = wanted.map((j) => gathered[j]!);
    const all = wanted.map((j, i) => ({ name: table.columns[j]!.name, codes: codes[i]!, dictionary: table.columns[j]!.dictionary }));
    const columns = all.filter((c) => quasi.has(c.name));
    const weights = weightsOf(weightColumn, all.find((c) => c.name === weightColumn), table.rowCount);
    const fraction = fractionOf(job, table.rowCount);
    return { table, columns, records: table.rowCount, options: { ...(fraction !== undefined ? { fraction } : {}), ...(weights ? { weights } : {}) } };
  }
  return undefined;
}

/** The profile of the first released table holding a quasi-identifier, computed here (an assessment); undefined when none does. */
export function releaseRiskProfile(job: Job, tables: readonly { readonly table: ReleaseTable }[], quasi: ReadonlySet<string>, weightColumn: string | undefined, grouped?: GroupedTable): RiskProfileReport | undefined {
  const input = releaseProfileInput(job, tables, quasi, weightColumn);
  return input ? { basis: 'release', ...riskProfile(input.columns, input.records, input.options, grouped?.table === input.table ? knownClasses(grouped.classes) : undefined) } : undefined;
}

/** The review's classes of a table as the profile takes them: the same ids, read as signed (there are fewer than 2^31). */
export function knownClasses(classes: TupleClasses): KnownClasses {
  return { ids: new Int32Array(classes.ids.buffer, classes.ids.byteOffset, classes.ids.length), count: classes.count };
}
