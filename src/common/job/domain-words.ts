import { FROM_DATA, VALUE_LABELS, type DomainSpec } from './job-parts.js';

/**
 * Where a column's domain comes from. Declared ("typed", "hierarchy", "value-labels"): the job's
 * decision, which the guarantees treat as public. "from-data": the values present, chosen on
 * purpose. A job that says nothing is refused (`undecidedDomain` in method-kit/domains.ts): there is
 * no default.
 */
export type DomainSource = 'typed' | 'hierarchy' | 'value-labels' | 'from-data';

export const isDeclared = (source: DomainSource): boolean => source !== 'from-data';

/**
 * The source a job's `method.domains` entry names (what the published job says; verify reads it from
 * there). A release from before the decision was required names none: its domain came from the data.
 */
export function domainSourceOf(spec: DomainSpec | undefined): DomainSource {
  if (spec === undefined) return 'from-data';
  if (spec === FROM_DATA) return 'from-data';
  if (spec === VALUE_LABELS) return 'value-labels';
  return Array.isArray(spec) ? 'typed' : 'hierarchy';
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
export function randomizedDomainWarning(sensitive: readonly { readonly column: string; readonly source: DomainSource }[], guarantee: string): { readonly published: string; readonly internal: string } | undefined {
  const fromData = sensitive.filter((s) => !isDeclared(s.source)).map((s) => s.column);
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
