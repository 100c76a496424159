/**
 * Every sentence β-privacy bucketization writes about a release, each once. `published` is a
 * function of the job's parameters and what report.json shows (the sensitive column, the β of each
 * value, the bucket sizes; verify writes it again from there); `internal` adds the cost and the
 * query error for the internal report only.
 */
import { betaDomainWarning, domainSentence, domainSourceOf, type DomainSource } from '../../common/job/domain-words.js';
import { own } from '../../common/job/names.js';
import type { Report } from '../../common/report/report-model.js';
import type { InternalStatement, PublicStatement, Statement, WrittenAgain } from '../../common/report/statement.js';
import type { BetaPrivacySpec } from './definition.js';

/** The job's parameters the sentences name. */
export type StatedParameters = Pick<BetaPrivacySpec, 'beta' | 'fakeValues'>;

/** A value of the sensitive domain with its threshold, as report.json's β table lists it. */
export interface StatedValue {
  readonly value: string;
  readonly beta: number;
  readonly betaExact: string;
}

/** What the release shows. */
export interface PublishedFigures {
  readonly sensitive: string;
  readonly domainSource: DomainSource;
  /** The domain's size m. */
  readonly m: number;
  /** The columns an adversary may know (quasi-identifiers and insensitive columns), in the input's order. */
  readonly nonSensitive: readonly string[];
  readonly values: readonly StatedValue[];
  /** The strictest β of the β table (every value of the domain, held by records or not). */
  readonly strictest: StatedValue;
  /** Buckets per size (QIT shows them). */
  readonly sizes: Readonly<Record<string, number>>;
}

/** Figures of the run: the cost of the bucketization and the query error measured on the true values. */
export interface InternalFigures {
  readonly loss: number;
  readonly mse: number;
  readonly anatomy: { readonly l: number; readonly mse: number; readonly feasible: boolean };
  /** The mean relative errors; undefined for an assessment (nothing released to measure). */
  readonly relativeError: { readonly release?: number; readonly anatomy?: number } | undefined;
}

/**
 * The value the summary names as the strictest: the smallest β of the whole β table. Not "among the
 * values present": with a declared domain that would publish which declared values the input lacks
 * (a fact of the input no guarantee covers), and verify could not write it again from the release.
 */
export function strictestOf(values: readonly StatedValue[]): StatedValue {
  return values.reduce((a, b) => (b.beta < a.beta ? b : a));
}

export function publishedStatement(spec: StatedParameters, f: PublishedFigures): PublicStatement {
  const domainWarning = betaDomainWarning(f.sensitive, f.domainSource);
  return {
    guarantee: {
      name: 'β-privacy',
      statement:
        `An adversary who knows a person's ${f.nonSensitive.join(', ')} and that the person is in the table infers each sensitive value v ` +
        'with probability at most β_v: in every bucket the share of v is at most β_v. ' +
        domainSentence([{ column: f.sensitive, source: f.domainSource, m: f.m }]),
      formula: 'P(v | t) = max over buckets B holding t of count_B(v)/|B| ≤ β_v, i.e. count_B(v) ≤ ⌊β_v·|B|⌋ (computed exactly)',
      source: 'Wang, Wang, Fu, Wong, "Inferential or Differential: Privacy Laws Dictate", §3–5',
    },
    summary: [...bucketSentences(f), ...fakeSentence(spec)],
    // The method's own words, and facts the release states anyway (the published β per value, QIT's bucket sizes).
    warnings: [...(domainWarning ? [domainWarning.published] : []), ...unboundedWarnings(spec, f.sensitive, f.values, f.sizes), ...methodWarnings(spec)],
  };
}

export function statement(spec: StatedParameters, f: PublishedFigures, c: InternalFigures): Statement {
  const published = publishedStatement(spec, f);
  const domainWarning = betaDomainWarning(f.sensitive, f.domainSource);
  const fmt = (v: number | undefined): string => (v === undefined || Number.isNaN(v) ? 'n/a' : v.toFixed(4));
  const error = c.relativeError;
  const internal: InternalStatement = {
    summary: [
      ...bucketSentences(f),
      `Cost: a count estimated from the buckets has a mean squared error (MSE) of ${c.mse.toFixed(3)} (loss ${c.loss.toLocaleString('en-US')}, the sum of the squared bucket sizes); Anatomy's buckets of ℓ = ${c.anatomy.l} distinct values would give ${c.anatomy.mse.toFixed(3)}${c.anatomy.feasible ? '' : ' and are not even feasible here'}.`,
      error
        ? `Count queries that fix a sensitive value, answered from the release, have a mean relative error of ${fmt(error.release)}${error.anatomy !== undefined ? ` (Anatomy: ${fmt(error.anatomy)})` : ''}.`
        : 'Run the job to measure the query error on the actual release.',
      ...fakeSentence(spec),
    ],
    warnings: [...(domainWarning ? [domainWarning.internal] : []), ...unboundedWarnings(spec, f.sensitive, f.values, f.sizes), ...methodWarnings(spec)],
  };
  return { published, internal };
}

/** The published sentences written again from report.json (verify): every figure they use is in it. */
export function publishedStatementOf(report: Report): WrittenAgain {
  const spec = report.job['method'] as StatedParameters & Pick<BetaPrivacySpec, 'domains'>;
  const beta = report.beta!;
  return publishedStatement(spec, {
    sensitive: beta.sensitive,
    domainSource: domainSourceOf(spec.domains ? own(spec.domains, beta.sensitive) : undefined),
    m: (report.method.derived as { m: number }).m,
    nonSensitive: report.input.columns.filter((c) => c.role === 'quasi' || c.role === 'insensitive').map((c) => c.name),
    values: beta.values,
    strictest: strictestOf(beta.values),
    sizes: beta.chosen.sizes,
  });
}

function bucketSentences(f: PublishedFigures): string[] {
  const sizeText = Object.entries(f.sizes).map(([s, n]) => `${n.toLocaleString('en-US')} of size ${s}`).join(', ');
  return [
    `The sensitive column ${f.sensitive} is published apart from the other columns: records are grouped into buckets (${sizeText}), ` +
      'the quasi-identifier table shows each record with its bucket id and the sensitive table lists the values of each bucket.',
    `Whoever knows a person's ${f.nonSensitive.join(', ')} can only narrow the person's ${f.sensitive} to the values of one bucket: ` +
      `each value v is inferred with probability at most β_v (strictest: "${f.strictest.value}" at ${f.strictest.betaExact}).`,
  ];
}

function fakeSentence(spec: StatedParameters): string[] {
  return spec.fakeValues > 0 ? [`Each bucket lists ${spec.fakeValues} fake value(s) so that an adversary who learns other records of a bucket stays uncertain (corruption attack).`] : [];
}

/**
 * Where the guarantee protects nothing: a value whose β is 1 may be inferred with certainty, and
 * without fake values a bucket of one record publishes that record's value beside its
 * quasi-identifiers. Both follow from what the release itself shows (the β of each value is
 * published with it, QIT shows each bucket's size), so the warnings are published too.
 */
function unboundedWarnings(spec: StatedParameters, sensitive: string, values: readonly { value: string; beta: number }[], sizes: Readonly<Record<string, number>>): string[] {
  const unbounded = values.filter((v) => v.beta >= 1).map((v) => `“${v.value}”`);
  const singles = sizes['1'] ?? 0;
  const warnings: string[] = [];
  if (unbounded.length > 0) {
    warnings.push(
      `β = 1 for ${unbounded.length === 1 ? unbounded[0] : `${unbounded.slice(0, -1).join(', ')} and ${unbounded.at(-1)}`}: the guarantee sets no bound for ${unbounded.length === 1 ? 'this value' : 'these values'}, ` +
        `so whoever finds a person's bucket may learn it with certainty. Give smaller β values (or a smaller coefficient) to protect ${unbounded.length === 1 ? 'it' : 'them'}.`,
    );
  }
  if (singles > 0 && spec.fakeValues === 0) {
    warnings.push(`${singles.toLocaleString('en-US')} record${singles === 1 ? ' is' : 's are'} in buckets of size 1: ${singles === 1 ? 'its' : 'each one\'s'} ${sensitive} is published exactly beside its quasi-identifiers.`);
  }
  return warnings;
}

/**
 * What a reader of the release must know about the method as configured. They state no fact of the
 * data, so they are published too.
 */
function methodWarnings(spec: StatedParameters): string[] {
  if (spec.fakeValues === 0) return [];
  return [
    `Fake values distort the sensitive table: each listed value belongs to a real record with probability |B|/(|B| + ${spec.fakeValues}).`,
    ...('coefficient' in spec.beta
      ? ['The thresholds β_v = c·f_v are published with the release, and each states its value\'s exact frequency in the input: a reader can subtract the fake values from the sensitive table\'s counts. Give explicit β values instead of the coefficient when the fake values matter.']
      : []),
  ];
}
