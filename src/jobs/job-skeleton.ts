import type { ColumnInfo } from '../common/ipc/api.js';
import { FROM_DATA, VALUE_LABELS, type DomainSpec, type Role } from '../common/job/job-parts.js';
import { suggestRole, type RoleSuggestion } from '../common/job/role-suggestions.js';
import { HELP_KEY } from '../common/job/job-notes.js';
import { describeFormats, type DateFormat } from '../common/table/date-text.js';
import { definitionOf, MECHANISM_TYPES, type MechanismType } from '../mechanisms/definitions.js';
import { nodeMechanismOf } from '../mechanisms/node-registry.js';
import { formatCount } from '../common/format/numbers.js';


export interface SkeletonInput {
  /** The input's path as the job will name it (absolute: the job file may be saved anywhere). */
  readonly path: string;
  readonly delimiter?: string;
  readonly encoding?: string;
  readonly sheet?: string;
  readonly missing: readonly string[];
  readonly rows: number;
  readonly columns: readonly ColumnInfo[];
  /** Every label the file declares, by column (SPSS/Stata value labels: metadata). */
  readonly labelSets?: ReadonlyMap<string, readonly string[]>;
  /** Every value of a column the data hold, by column, for columns with at most MAX_PROPOSED_VALUES. */
  readonly values?: ReadonlyMap<string, readonly string[]>;
  /** Date columns as the reader finds them (src/io/input/date-columns.ts): the format of each, and those that read day first and month first alike. */
  readonly dates?: {
    readonly found: readonly { readonly column: string; readonly format: DateFormat }[];
    readonly ambiguous: readonly { readonly column: string; readonly formats: readonly DateFormat[] }[];
  };
}

/** The question init asks of a column whose dates read day first and month first alike, in the written job. */
export function ambiguousDatesNote(column: string, formats: readonly DateFormat[]): string {
  return `ASK: the dates of "${column}" read day first and month first alike (no day in them is above 12): write which under input.dates, ${describeFormats(formats)}, e.g. "dates": {${JSON.stringify(column)}: "${formats[0]}"}; assess and run refuse the job until it says.`;
}

/** Values in a stable order: numerically for numeric columns, else by code point. */
export function sortedValues(values: readonly string[], type: string): string[] {
  const numeric = type === 'integer' || type === 'decimal';
  return [...values].sort((a, b) => (numeric ? Number(a) - Number(b) : a < b ? -1 : a > b ? 1 : 0));
}

/** The most values init copies into a job as a proposed domain; a column with more gets "from-data", said in a note. */
export const MAX_PROPOSED_VALUES = 1000;

/**
 * The domain init proposes for a column, and the note that goes with it: the file's value labels when
 * they cover every value it holds (metadata: public by nature), else the data's values written out
 * for the custodian to review (a declared domain is treated as public), else "from-data".
 */
function proposedDomain(name: string, input: SkeletonInput, missingCategory: string | undefined): { spec: DomainSpec; note?: string; review?: string } {
  const labels = input.labelSets?.get(name);
  const values = input.values?.get(name);
  if (labels && labels.length >= 2 && values && values.every((v) => labels.includes(v))) {
    if (!missingCategory) return { spec: VALUE_LABELS };
    return { spec: [...labels, missingCategory], note: `${name}: the file's ${labels.length} value labels and ${missingCategory} (its missing values as a category)` };
  }
  if (values && values.length + (missingCategory ? 1 : 0) >= 2) {
    return { spec: [...values, ...(missingCategory ? [missingCategory] : [])], review: name };
  }
  return { spec: FROM_DATA, note: `${name}: ${values ? 'fewer than 2 values' : `more than ${formatCount(MAX_PROPOSED_VALUES)} values`} to list; "${FROM_DATA}" publishes which values occur (a warning in the report says so): declare the public values instead where you can` };
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
  const recodes: [string, NonNullable<RoleSuggestion['recode']>][] = [];
  for (const column of input.columns) {
    const suggestion = suggestRole(column, input.rows);
    const role: Role = suggestion?.role ?? 'quasi';
    roles.push([column.name, role]);
    reasons.push(`${column.name}: ${role} — ${suggestion ? suggestion.reason : 'the default: a fact others may know'}`);
    if (suggestion?.recode) recodes.push([column.name, suggestion.recode]);
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
  // The method's own columns (dp-counts' crossed columns, microaggregation's numbers), as the mechanism chooses them.
  const starting = definition.startingColumns?.(input.columns, (name) => roles.find(([n]) => n === name)?.[1] === 'identifier');
  if (starting) notes.push(starting.note);
  const needsHierarchies = definition.recodes;
  // Full dates and postcodes: Safe Harbor's recoding, as hierarchies where the method recodes, else said where the custodian reads first.
  const recodeHierarchies = needsHierarchies ? recodes.flatMap(([name, r]) => (r.hierarchy ? [[name, r.hierarchy] as const] : [])) : [];
  const unrecoded = needsHierarchies ? recodes.filter(([, r]) => !r.hierarchy) : recodes;
  if (recodeHierarchies.length > 0) {
    notes.push(`RECODE ${recodeHierarchies.map(([name]) => name).join(', ')}: method.hierarchies has a hierarchy for each (${recodes.filter(([, r]) => r.hierarchy).map(([name, r]) => `${name} to ${r.to}`).join('; ')}); the disclosure review fails while a released value is finer.`);
  }
  if (unrecoded.length > 0 && nodeMechanismOf(method).releasesInputColumns) {
    notes.push(
      `RECODE ${unrecoded.map(([name]) => name).join(', ')} before release (${unrecoded.map(([name, r]) => `${name} to ${r.to}`).join('; ')}): ` +
        (needsHierarchies
          ? 'give each a hierarchy file under method.hierarchies (value, coarser values…)'
          : `${definition.metadata.cardTitle} releases the quasi-identifiers as they are, so the disclosure review fails on them: recode them first (custos init FILE --method global-recoding writes the hierarchies), or mark them "identifier" to leave them out`) +
        '.',
    );
  }
  // The domain is a decision of the job: proposed here in the declared form, for the columns whose values the release shows.
  const domainColumns = definition.domainsOf === 'sensitive' ? sensitive : definition.domainsOf === 'method-columns' ? [...(starting?.columns ?? [])] : [];
  // The label input.missingSensitive "category" gives missing values (missingLabel: one the column does not hold).
  const missingCategory = (name: string): string | undefined => {
    if (!withMissing.includes(name) || definition.metadata.sensitiveColumns === 'none') return undefined;
    const taken = new Set(input.values?.get(name) ?? []);
    let label = '(missing)';
    for (let i = 2; taken.has(label); i++) label = `(missing ${i})`;
    return label;
  };
  const proposals = domainColumns.map((name) => [name, proposedDomain(name, input, missingCategory(name))] as const);
  const reviewed = proposals.flatMap(([, p]) => (p.review ? [p.review] : []));
  const domainNotes = [
    ...(reviewed.length > 0
      ? [
          `REVIEW method.domains: the values of ${reviewed.join(', ')} were copied from the confidential file. A declared domain is treated as public and is published with the job: ` +
            'check that every listed value is one anyone may know the column can take (recode or remove records whose value would single someone out), and add the possible values this file lacks; a record whose value is not listed stops the run (exit 3). ' +
            `Or write {"hierarchy": "FILE.csv"} (its first column), or "${FROM_DATA}" to take the values from the data on purpose (the report then publishes that each value occurs in the file).`,
        ]
      : []),
    ...proposals.flatMap(([, p]) => (p.note ? [p.note] : [])),
  ];
  const foundDates = input.dates?.found ?? [];
  const ambiguous = input.dates?.ambiguous ?? [];
  return {
    [HELP_KEY]: [
      `A job for ${input.path} (${formatCount(input.rows)} records) with ${definition.metadata.title}, written by custos init. Check every role and parameter, then run: custos assess job.json, custos run job.json.`,
      sensitive.length === 0 ? 'No column looks sensitive by its name: mark the column to protect as "sensitive" under attributes.' : `Sensitive: ${sensitive.join(', ')}. Check that these are the columns to protect.`,
      ...notes,
      ...(reviewed.length > 0 ? [`REVIEW method.domains (${reviewed.join(', ')}): the values were copied from the file; the note under method says what to check.`] : []),
      ...ambiguous.map((a) => ambiguousDatesNote(a.column, a.formats)),
      'Roles: identifier (dropped from every release), quasi (a fact others may know), sensitive (protected), insensitive (released as is).',
      ...reasons,
    ],
    version: 1,
    input: {
      [HELP_KEY]: [
        'How the file is read: the delimiter and encoding Custos detected, and the codes that mean "missing".',
        ...(foundDates.length > 0 ? [`dates: the format custos init found in each date column (${foundDates.map((d) => `${d.column}: ${d.format}`).join(', ')}); change one that reads wrongly, or write "text" to keep a column as typed.`] : []),
        ...ambiguous.map((a) => ambiguousDatesNote(a.column, a.formats)),
      ].join(' '),
      path: input.path,
      ...(input.delimiter !== undefined ? { delimiter: input.delimiter } : {}),
      ...(input.encoding ? { encoding: input.encoding } : {}),
      ...(input.sheet ? { sheet: input.sheet } : {}),
      missing: [...input.missing],
      // Built from pairs, so a column called "__proto__" is a key like any other.
      ...(foundDates.length > 0 ? { dates: Object.fromEntries(foundDates.map((d) => [d.column, d.format])) } : {}),
      ...(withMissing.length > 0 && definition.metadata.sensitiveColumns !== 'none' ? { missingSensitive: 'category' } : {}),
    },
    // Built from pairs, so a column called "__proto__" is a key like any other.
    attributes: Object.fromEntries(roles),
    method: {
      [HELP_KEY]: [
        `${definition.metadata.protects} Guarantee: ${definition.metadata.guarantee}${needsHierarchies ? ` ${HIERARCHY_HELP}` : ''} Other methods: ${MECHANISM_TYPES.join(', ')} (custos init FILE --method TYPE).`,
        ...domainNotes,
      ].join(' '),
      ...definition.suggested,
      // Built from pairs, so a column called "__proto__" is a key like any other.
      ...(needsHierarchies ? { hierarchies: Object.fromEntries(recodeHierarchies) } : {}),
      ...(starting?.columns ? { columns: [...starting.columns] } : {}),
      // Built from pairs, so a column called "__proto__" is a key like any other.
      ...(proposals.length > 0 ? { domains: Object.fromEntries(proposals.map(([name, p]) => [name, p.spec])) } : {}),
    },
    output: {
      [HELP_KEY]: 'The release folder (what may be published) and its formats; the internal report goes beside it, named DIR-internal. Add "xlsx" to formats for a workbook, "parquet" for Apache Parquet files.',
      dir: 'release',
      formats: ['csv'],
      report: ['html', 'pdf', 'json'],
    },
  };
}
