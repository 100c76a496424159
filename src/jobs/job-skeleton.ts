import type { ColumnInfo } from '../common/ipc/api.js';
import type { Role } from '../common/job/job-parts.js';
import { suggestRole } from '../common/job/role-suggestions.js';
import { HELP_KEY } from '../common/job/job-notes.js';
import { definitionOf, MECHANISM_TYPES, type MechanismType } from '../mechanisms/definitions.js';


export interface SkeletonInput {
  /** The input's path as the job will name it (relative to the job file's folder). */
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
  'Give each quasi-identifier a hierarchy, or it can only be kept or suppressed whole: {"type": "interval", "widths": [5, 10, 20]} for numbers, {"type": "masking", "length": 5} for codes such as ZIP, {"type": "date", "levels": ["year-month", "year", "decade"]} for dates, or the path of a CSV file with one row per value (value, level 1, level 2, …).';

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
  const sensitive = roles.filter(([, role]) => role === 'sensitive').map(([name]) => name);
  const needsHierarchies = method === 'safe-k-anonymity' || method === 'partitioned-recoding';
  return {
    [HELP_KEY]: [
      `A ${definition.metadata.title} job for ${input.path} (${input.rows.toLocaleString('en-US')} records), written by custos init. Check every role and parameter, then run: custos assess job.json, custos run job.json.`,
      sensitive.length === 0 ? 'No column looks sensitive by its name: mark the column to protect as "sensitive" under attributes.' : `Sensitive: ${sensitive.join(', ')}. Check that these are the columns to protect.`,
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
    },
    // Built from pairs, so a column called "__proto__" is a key like any other.
    attributes: Object.fromEntries(roles),
    method: {
      [HELP_KEY]: `${definition.metadata.protects} Guarantee: ${definition.metadata.guarantee}${needsHierarchies ? ` ${HIERARCHY_HELP}` : ''} Other methods: ${MECHANISM_TYPES.join(', ')} (custos init FILE --method TYPE).`,
      ...definition.suggested,
      ...(needsHierarchies ? { hierarchies: {} } : {}),
    },
    output: {
      [HELP_KEY]: 'The release folder (what may be published) and its formats; the internal report goes beside it, named DIR-internal. Add "xlsx" to formats for a workbook.',
      dir: 'release',
      formats: ['csv'],
      report: ['html', 'pdf', 'json'],
    },
  };
}
