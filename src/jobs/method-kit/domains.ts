import { basename, resolve } from 'node:path';
import { FROM_DATA, VALUE_LABELS, type DomainSpec } from '../../common/job/job-parts.js';
import { own, type Named } from '../../common/job/names.js';
import { OutsideDomainError } from '../../common/table/sensitive-domain.js';
import { readHierarchyRows } from '../../io/input/hierarchy-reader.js';
import type { ImportedTable } from '../../io/input/import-types.js';
import { InputError } from '../../io/input/input-error.js';
import { JobError } from '../../common/job/job-error.js';
import type { DomainSource } from '../../common/job/domain-words.js';

// The words about domains are environment-free (the mechanisms' statements and verify write them).
export { betaDomainWarning, domainAdvice, domainSentence, fromDataWarning, isDeclared, type DomainSource } from '../../common/job/domain-words.js';

export interface ResolvedDomain {
  readonly source: DomainSource;
  /** The declared values, in the order the job (file, labels) gives them; none when from the data. */
  readonly values?: readonly string[];
}

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
