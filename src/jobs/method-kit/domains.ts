import { basename, resolve } from 'node:path';
import { FROM_DATA, VALUE_LABELS, type DomainSpec } from '../../common/job/job-parts.js';
import { own, type Named } from '../../common/job/names.js';
import { OutsideDomainError } from '../../common/table/sensitive-domain.js';
import { readHierarchyRows } from '../../io/input/hierarchy-reader.js';
import type { ImportedTable } from '../../io/input/import-types.js';
import { InputError } from '../../io/input/input-error.js';
import { JobError } from './job-error.js';

/**
 * Where a column's domain comes from. Declared ("typed", "hierarchy", "value-labels"): the job's
 * decision, which the guarantees treat as public. "from-data": the values present, chosen on
 * purpose. A job that says nothing is refused (`undecidedDomain`): there is no default.
 */
export type DomainSource = 'typed' | 'hierarchy' | 'value-labels' | 'from-data';

export interface ResolvedDomain {
  readonly source: DomainSource;
  /** The declared values, in the order the job (file, labels) gives them; none when from the data. */
  readonly values?: readonly string[];
}

export const isDeclared = (source: DomainSource): boolean => source !== 'from-data';

/** What a run needs to read a domain: the input (its value labels) and the folder a hierarchy path resolves against. */
export interface DomainSources {
  readonly imported: ImportedTable;
  readonly baseDir: string;
}

/**
 * The job error of a column whose domain the job does not decide: the domain fixes which values the
 * release can show, so it is never taken from the data unless the job says so.
 */
export function undecidedDomain(column: string): JobError {
  return new JobError(
    `the job decides no domain for "${column}" (the values its release can show): declare the public values, "domains": {"${column}": ["value 1", "value 2", …]}, ` +
      `or take them from an SPSS/Stata file's value labels ("${VALUE_LABELS}") or a hierarchy file's first column ({"hierarchy": "FILE.csv"}); ` +
      `or write "${FROM_DATA}" knowing that the release then shows which values occur in the confidential file (custos init proposes the declared form)`,
    `method.domains.${column}`,
  );
}

/** A column's domain as the job declares it: a list, a hierarchy file's first column, the file's value labels, or from the data; none is a job error. */
export function resolveDomain(column: string, spec: DomainSpec | undefined, sources: DomainSources): ResolvedDomain {
  const key = `method.domains.${column}`;
  if (spec === undefined) throw undecidedDomain(column);
  if (spec === FROM_DATA) return { source: 'from-data' };
  if (Array.isArray(spec)) return { source: 'typed', values: spec };
  if (spec === VALUE_LABELS) {
    const variable = sources.imported.variables?.find((v) => v.name === column);
    const labels = variable?.labelSet ?? [];
    if (labels.length < 2) {
      throw new JobError(
        sources.imported.variables === undefined
          ? `"${VALUE_LABELS}" takes the value labels of an SPSS or Stata file; this input (${sources.imported.format}) has none: list the values, or name a hierarchy file`
          : `the input declares ${labels.length === 0 ? 'no value labels' : 'a single value label'} for "${column}"; list the values, or name a hierarchy file`,
        key,
      );
    }
    return { source: 'value-labels', values: labels };
  }
  const rows = readHierarchyRows(resolve(sources.baseDir, spec.hierarchy));
  const values = rows.map((row) => row[0]!);
  if (values.length < 2) throw new JobError(`the hierarchy file lists ${values.length} value(s); a domain needs at least 2`, key);
  return { source: 'hierarchy', values };
}

/**
 * Every domain a job names, resolved; names that are not columns of the input are job errors, and so
 * is a column of `required` (the columns whose values the release shows) the job decides nothing for.
 */
export function resolveDomains(specs: Named<DomainSpec> | undefined, sources: DomainSources, required: readonly string[]): Map<string, ResolvedDomain> {
  const out = new Map<string, ResolvedDomain>();
  for (const name of Object.keys(specs ?? {})) {
    if (!sources.imported.table.columns.some((c) => c.name === name)) throw new JobError(`the input has no column "${name}"`, `method.domains.${name}`);
    out.set(name, resolveDomain(name, own(specs!, name), sources));
  }
  // A required name the input lacks is the caller's error, under its own key (method.columns[i]).
  const undecided = required.find((name) => !out.has(name) && sources.imported.table.columns.some((c) => c.name === name));
  if (undecided !== undefined) throw undecidedDomain(undecided);
  return out;
}

/** Records outside a declared domain are a problem of the input (exit 3), named by the input file. */
export function asInputProblem(error: unknown, inputPath: string): unknown {
  return error instanceof OutsideDomainError ? new InputError(error.message, basename(inputPath)) : error;
}

/** How the columns are listed in a sentence. */
const quoted = (names: readonly string[]): string => names.map((n) => `“${n}”`).join(', ');

/**
 * The published warning for domains taken from the data: what it reveals (each listed value occurs
 * in the confidential file) and what the guarantee then does not cover. `use` says what the method
 * does with the domain.
 */
export function fromDataWarning(columns: readonly string[], use: string, guarantee: string): string {
  return (
    `The ${columns.length === 1 ? 'domain' : 'domains'} of ${quoted(columns)} ${columns.length === 1 ? 'was' : 'were'} taken from the values present in the input, not declared: ${use} ` +
    `so the release shows that each of these values occurs in the confidential file (a value held by one person shows that a person with it is in the data). ` +
    `${guarantee} assumes a public domain and does not cover this list.`
  );
}

/** The custodian's remedy, for the internal report only. */
export function domainAdvice(fromData: readonly string[]): string {
  return `Declare the public values of ${quoted(fromData)} (method.domains) to keep this list out of the release: a list, {"hierarchy": "FILE.csv"} or "${VALUE_LABELS}".`;
}

/** The guarantee's words about the domain: public when declared, the warning's point when not. */
export function domainSentence(domains: readonly { readonly column: string; readonly source: DomainSource; readonly m: number }[]): string {
  const declared = domains.filter((d) => isDeclared(d.source));
  const fromData = domains.filter((d) => !isDeclared(d.source));
  return [
    declared.length > 0
      ? `The ${declared.length === 1 ? 'domain' : 'domains'} of ${declared.map((d) => `“${d.column}” (m = ${d.m})`).join(', ')} ${declared.length === 1 ? 'is' : 'are'} declared in the job (${declared.map((d) => sourceWords(d.source)).filter((w, i, all) => all.indexOf(w) === i).join(', ')}) and public: ` +
        'every released value of ' + (declared.length === 1 ? 'it' : 'them') + ' is a declared value, and an input holding any other value is refused, never mapped or dropped.'
      : '',
    fromData.length > 0 ? `The ${fromData.length === 1 ? 'domain' : 'domains'} of ${quoted(fromData.map((d) => d.column))} ${fromData.length === 1 ? 'was' : 'were'} taken from the input: the guarantee does not cover which values occur (see the warnings).` : '',
  ]
    .filter(Boolean)
    .join(' ');
}

function sourceWords(source: DomainSource): string {
  return source === 'hierarchy' ? 'the first column of a hierarchy file' : source === 'value-labels' ? "the input's value labels" : 'listed';
}


/**
 * The published warning and the internal advice of a randomized-response run whose sensitive
 * domains are taken from the data, or none when every domain is declared.
 */
export function randomizedDomainWarning(sensitive: readonly { readonly column: { readonly name: string }; readonly domainSource: DomainSource }[], guarantee: string): { readonly published: string; readonly internal: string } | undefined {
  const fromData = sensitive.filter((s) => !isDeclared(s.domainSource)).map((s) => s.column.name);
  if (fromData.length === 0) return undefined;
  const published = fromDataWarning(fromData, 'a replaced value is drawn from this list (a value present in one record can be copied onto others),', guarantee);
  return { published, internal: `${published} ${domainAdvice(fromData)}` };
}

/**
 * β-privacy's published warning for a domain taken from the data. ST lists every record's value
 * whatever the domain (the histogram is part of the release); what the domain adds is the β table
 * and the fake values, which then come from the values present only.
 */
export function betaDomainWarning(column: string, source: DomainSource): { readonly published: string; readonly internal: string } | undefined {
  if (isDeclared(source)) return undefined;
  const published =
    `The domain of “${column}” was taken from the values present in the input, not declared: the report's β table lists exactly these values and every fake value is one of them. ` +
    "ST shows each value that occurs in the confidential file in any case (its counts are the column's histogram; a value held by one person shows that a person with it is in the data): " +
    'β-privacy bounds what is inferred about a person, not which values occur.';
  return { published, internal: `${published} ${domainAdvice([column])}` };
}
