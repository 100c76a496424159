import { useEffect } from 'react';
import { FROM_DATA, VALUE_LABELS, type DomainSpec, type Role } from '../../common/job/job-parts.js';
import { named, own, withName, type Named } from '../../common/job/names.js';
import type { OpenedFile } from '../../common/ipc/api.js';
import { TextField } from './fields.js';
import { formatNumber } from '../../common/format/numbers.js';

/**
 * A column's domain as the wizard holds it, one text per column: the values typed (comma or line
 * separated), or the job's own words for the other forms: "from-data", "value-labels",
 * "hierarchy: FILE.csv". Empty: no decision yet.
 */
export type DomainTexts = Named<string>;

const HIERARCHY_PREFIX = 'hierarchy:';

/** The typed values of a text (empty entries left out). */
export function listedValues(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

/** The job's domain for a text, or undefined when it says nothing. */
export function domainOfText(text: string): DomainSpec | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  if (trimmed === FROM_DATA || trimmed === VALUE_LABELS) return trimmed;
  if (trimmed.startsWith(HIERARCHY_PREFIX)) return { hierarchy: trimmed.slice(HIERARCHY_PREFIX.length).trim() };
  return listedValues(trimmed);
}

/** The text of a job's domain, as the field shows it. */
export function textOfDomain(spec: DomainSpec): string {
  if (Array.isArray(spec)) return spec.join(', ');
  return typeof spec === 'string' ? spec : `${HIERARCHY_PREFIX} ${spec.hierarchy}`;
}

/** The domains of the given columns whose texts say something, for the job. */
export function domainsOf(texts: DomainTexts, columns: readonly string[]): { domains?: Record<string, DomainSpec> } {
  const entries = columns.flatMap((c): [string, DomainSpec][] => {
    const spec = domainOfText(own(texts, c) ?? '');
    return spec === undefined ? [] : [[c, spec]];
  });
  return entries.length > 0 ? { domains: named(entries) } : {};
}

export function textsOf(domains: Named<DomainSpec> | undefined): DomainTexts {
  return named(Object.entries(domains ?? {}).map(([c, spec]): [string, string] => [c, textOfDomain(spec)]));
}

/** No decision: the run refuses a column whose domain the job does not decide. */
export const UNDECIDED_PROBLEM = `decide the domain: list the public values, or choose “${FROM_DATA}” (the release then shows which values occur)`;

/** What a text cannot be, or values the file holds that a typed list leaves out (the run would refuse those records). */
export function domainProblem(text: string, column: string, file: OpenedFile): string | undefined {
  const spec = domainOfText(text);
  if (spec === undefined) return UNDECIDED_PROBLEM;
  if (spec === FROM_DATA || spec === VALUE_LABELS) return undefined;
  if (!Array.isArray(spec)) return spec.hierarchy === '' ? 'name the hierarchy file after “hierarchy:”' : undefined;
  if (spec.length < 2) return 'list at least 2 values';
  if (new Set(spec).size !== spec.length) return 'a value is listed twice';
  const known = file.columns.find((c) => c.name === column);
  const missing = known && known.distinct <= known.top.length ? known.top.map((t) => t.value).filter((v) => !spec.includes(v)) : [];
  return missing.length > 0 ? `the data also hold ${missing.slice(0, 4).map((v) => `“${v}”`).join(', ')}${missing.length > 4 ? ', …' : ''}: list them too (the run refuses records outside the domain)` : undefined;
}

/**
 * The file's values of a column, sorted, when the file lists them all (the proposal to review), else
 * undefined; with missing values, also the label input.missingSensitive "category" (the wizard's
 * default) gives them, as missingLabel names it.
 */
export function proposedValues(column: string, file: OpenedFile, missingCategory = true): string[] | undefined {
  const info = file.columns.find((c) => c.name === column);
  if (info === undefined || info.distinct > info.top.length) return undefined;
  const values = info.top.map((t) => t.value).sort();
  if (missingCategory && info.missing > 0) {
    let label = '(missing)';
    for (let i = 2; values.includes(label); i++) label = `(missing ${i})`;
    values.push(label);
  }
  return values.length >= 2 ? values : undefined;
}

/**
 * The domain size m a text declares: the number of values listed, or undefined when the wizard cannot
 * know it (a hierarchy file, value labels) or the values come from the data (the file's distinct count).
 */
export function declaredSize(text: string): number | undefined {
  const spec = domainOfText(text);
  return Array.isArray(spec) ? new Set(spec).size : undefined;
}

/** Each sensitive column with its domain's size m: the declared list's, else the file's distinct count (the run checks the rest). */
export function domainSizes(texts: DomainTexts, sensitive: readonly { readonly name: string; readonly distinct: number }[]): { readonly name: string; readonly m: number }[] {
  return sensitive.map((c) => ({ name: c.name, m: declaredSize(own(texts, c.name) ?? '') ?? c.distinct }));
}

/** The columns of the texts that are sensitive (all of them when the roles are not known): a domain belongs to a sensitive column only. */
export function sensitiveNames(texts: DomainTexts, roles: Named<Role> | undefined): string[] {
  return Object.keys(texts).filter((c) => roles === undefined || own(roles, c) === 'sensitive');
}

/** The problems of the sensitive columns' domain texts, under `domain.COLUMN`. */
export function domainProblems(texts: DomainTexts, context: { readonly sensitive: readonly { readonly name: string }[]; readonly file: OpenedFile }): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const { name } of context.sensitive) {
    const problem = domainProblem(own(texts, name) ?? '', name, context.file);
    if (problem) problems[`domain.${name}`] = problem;
  }
  return problems;
}

/** What taking the values from the data reveals: said where the choice is made, as the report says it. */
export const FROM_DATA_WARNING = 'The release then shows that each of the column’s values occurs in the confidential file (a value held by one person shows that person is in the data), and the report publishes a warning saying so.';

/**
 * The domain field of each column: the values, proposed from the file when it lists them all, or
 * "from-data" chosen on purpose with what it reveals.
 */
export function DomainFields(props: {
  columns: readonly string[];
  texts: DomainTexts;
  file: OpenedFile;
  set: (texts: DomainTexts) => void;
  problems: Named<string>;
  what: string;
  /** Missing values become a value of their own (sensitive columns; dp-counts' cells do not count them). */
  missingCategory?: boolean;
}) {
  // A column without a decision gets the file's values written out, to review and edit (as custos init proposes them).
  const { columns, texts, file, set, missingCategory = true } = props;
  useEffect(() => {
    let proposed = texts;
    for (const name of columns) {
      const values = (own(proposed, name) ?? '').trim() === '' ? proposedValues(name, file, missingCategory) : undefined;
      if (values) proposed = withName(proposed, name, values.join(', '));
    }
    if (proposed !== texts) set(proposed);
  }, [columns, texts, file, set, missingCategory]);
  return (
    <>
      <p className="help">
        {props.what} The values listed are public: every one is possible in the release, whether or not the data hold it, and a record whose value is not listed stops the run. Other forms: “hierarchy: FILE.csv” (its first column), “{VALUE_LABELS}” (an SPSS or Stata file’s value labels), or “{FROM_DATA}”. {FROM_DATA_WARNING}
      </p>
      {props.columns.map((name) => {
        const info = props.file.columns.find((c) => c.name === name);
        const complete = info !== undefined && info.distinct <= info.top.length;
        const text = own(props.texts, name) ?? '';
        return (
          <div key={name} className="field wide">
            <TextField label={`Public values of ${name}`} value={text} onChange={(value) => props.set(withName(props.texts, name, value))} placeholder="the public values, comma separated" wide />
            {complete && (
              <button type="button" onClick={() => props.set(withName(props.texts, name, proposedValues(name, props.file, missingCategory)?.join(', ') ?? ''))}>
                Use the file's {formatNumber(info.distinct)} values (review them)
              </button>
            )}{' '}
            <button type="button" onClick={() => props.set(withName(props.texts, name, FROM_DATA))}>
              Take the values from the data
            </button>
            {text.trim() === FROM_DATA && <p className="warn-text">{FROM_DATA_WARNING}</p>}
            {text.trim() !== '' && text.trim() !== FROM_DATA && complete && <p className="help">Proposed from the file: check that every listed value is one anyone may know the column can take, and add the possible values the file lacks.</p>}
            {own(props.problems, `domain.${name}`) && <p className="error-text">{own(props.problems, `domain.${name}`)}</p>}
          </div>
        );
      })}
    </>
  );
}
