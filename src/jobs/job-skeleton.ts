import type { ColumnInfo } from '../common/ipc/api.js';
import type { Role } from '../common/job/job-parts.js';
import { suggestRole } from '../common/job/role-suggestions.js';
import { HELP_KEY } from '../common/job/job-notes.js';
import { definitionOf, MECHANISM_TYPES, type MechanismType } from '../mechanisms/definitions.js';


export interface SkeletonInput {
  /** The input's path as the job will name it (absolute: the job file may be saved anywhere). */
  readonly path: string;
  readonly delimiter?: string;
  readonly encoding?: string;
  readonly sheet?: string;
  readonly missing: readonly string[];
  readonly rows: number;
  readonly columns: readonly ColumnInfo[];
}

/** Why methods that generalize need hierarchies, said where they are set. */
const HIERARCHY_HELP =
  'Give each quasi-identifier a hierarchy, or it can only be kept or suppressed whole: {"type": "interval", "widths": [5, 10, 20]} or {"type": "rounding", "bases": [5, 10, 100]} (rounded down to multiples) for numbers, {"type": "masking", "length": 5} for codes such as ZIP, {"type": "date"} for ISO dates (year-month, year, decade), or the path of a CSV file with one row per value (value, level 1, level 2, …).';

/**
 * A job for a file, as the wizard would start it: the roles it would suggest
 * (with the reason of each), the method's suggested parameters, and CSV with
 * every report. Each section says what to check in a `_help` note, so someone
 * working in batch never writes a job from scratch.
 */
export function jobSkeleton(input: SkeletonInput, method: MechanismType): Record<string, unknown> {
  const definition = definitionOf(method);
  const roles: [string, Role][] = [];
  const reasons: string[] = [];
  for (const column of input.columns) {
    const suggestion = suggestRole(column, input.rows);
    const role: Role = suggestion?.role ?? 'quasi';
    roles.push([column.name, role]);
    reasons.push(`${column.name}: ${role} — ${suggestion ? suggestion.reason : 'the default: a fact others may know'}`);
  }
  let sensitive = roles.filter(([, role]) => role === 'sensitive').map(([name]) => name);
  const notes: string[] = [];
  // A method that protects exactly one column gets the first suggested; the others are treated as known facts.
  if (definition.metadata.sensitiveColumns === 'one' && sensitive.length > 1) {
    const [kept, ...others] = sensitive;
    for (const pair of roles) if (others.includes(pair[0])) pair[1] = 'quasi';
    notes.push(`${definition.metadata.cardTitle} protects one column: ${kept} is sensitive; ${others.join(', ')} ${others.length === 1 ? 'was' : 'were'} also suggested and ${others.length === 1 ? 'is' : 'are'} set to quasi here (swap them if another column is the one to protect).`);
    sensitive = [kept!];
  }
  const byName = new Map(input.columns.map((c) => [c.name, c]));
  const withMissing = sensitive.filter((name) => (byName.get(name)?.missing ?? 0) > 0);
  if (withMissing.length > 0 && definition.metadata.sensitiveColumns !== 'none') {
    notes.push(`${withMissing.join(', ')} ${withMissing.length === 1 ? 'has' : 'have'} missing values: input.missingSensitive "category" treats them as a value of their own; "exclude" leaves those records out (reported).`);
  }
  // Counts need columns to cross: the few-valued columns that are not identifiers, at most three.
  const counted = method === 'dp-counts' ? input.columns.filter((c) => c.distinct >= 2 && c.distinct <= 50 && roles.find(([n]) => n === c.name)?.[1] !== 'identifier').sort((a, b) => a.distinct - b.distinct).slice(0, 3).map((c) => c.name) : [];
  if (method === 'dp-counts') notes.push(counted.length > 0 ? `The counts are every 1- and 2-way table over ${counted.join(', ')} (method.columns): choose the columns to publish.` : 'Choose method.columns: the columns whose 1- and 2-way tables are counted.');
  // Microaggregation takes numbers in every record: the numeric columns without missing values that are not identifiers.
  const aggregated = method === 'microaggregation' ? input.columns.filter((c) => (c.type === 'integer' || c.type === 'decimal') && c.missing === 0 && roles.find(([n]) => n === c.name)?.[1] !== 'identifier').map((c) => c.name) : [];
  if (method === 'microaggregation') notes.push(aggregated.length > 0 ? `The aggregated columns are the numeric ones without missing values (method.columns): ${aggregated.join(', ')}. Aggregate every numeric quasi-identifier together; the others are released unchanged.` : 'Choose method.columns: the numeric columns to aggregate (numbers in every record).');
  const needsHierarchies = method === 'safe-k-anonymity' || method === 'partitioned-recoding' || method === 'global-recoding';
  return {
    [HELP_KEY]: [
      `A ${definition.metadata.title} job for ${input.path} (${input.rows.toLocaleString('en-US')} records), written by custos init. Check every role and parameter, then run: custos assess job.json, custos run job.json.`,
      sensitive.length === 0 ? 'No column looks sensitive by its name: mark the column to protect as "sensitive" under attributes.' : `Sensitive: ${sensitive.join(', ')}. Check that these are the columns to protect.`,
      ...notes,
      'Roles: identifier (dropped from every release), quasi (a fact others may know), sensitive (protected), insensitive (released as is).',
      ...reasons,
    ],
    version: 1,
    input: {
      [HELP_KEY]: 'How the file is read: the delimiter and encoding Custos detected, and the codes that mean "missing".',
      path: input.path,
      ...(input.delimiter !== undefined ? { delimiter: input.delimiter } : {}),
      ...(input.encoding ? { encoding: input.encoding } : {}),
      ...(input.sheet ? { sheet: input.sheet } : {}),
      missing: [...input.missing],
      ...(withMissing.length > 0 && definition.metadata.sensitiveColumns !== 'none' ? { missingSensitive: 'category' } : {}),
    },
    // Built from pairs, so a column called "__proto__" is a key like any other.
    attributes: Object.fromEntries(roles),
    method: {
      [HELP_KEY]: `${definition.metadata.protects} Guarantee: ${definition.metadata.guarantee}${needsHierarchies ? ` ${HIERARCHY_HELP}` : ''} Other methods: ${MECHANISM_TYPES.join(', ')} (custos init FILE --method TYPE).`,
      ...definition.suggested,
      ...(needsHierarchies ? { hierarchies: {} } : {}),
      ...(method === 'dp-counts' && counted.length > 0 ? { columns: counted } : {}),
      ...(method === 'microaggregation' ? { columns: aggregated } : {}),
    },
    output: {
      [HELP_KEY]: 'The release folder (what may be published) and its formats; the internal report goes beside it, named DIR-internal. Add "xlsx" to formats for a workbook, "parquet" for Apache Parquet files.',
      dir: 'release',
      formats: ['csv'],
      report: ['html', 'pdf', 'json'],
    },
  };
}
