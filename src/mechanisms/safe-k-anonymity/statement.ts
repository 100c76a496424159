/**
 * Every sentence sampling + safe k-anonymization writes about a release, each once. `published`
 * is a function of k, β, ε and δ as report.json states them (verify writes it again from there);
 * `internal` adds the sample's counts, the loss and the query error for the internal report only.
 */
import type { Report } from '../../common/report/report-model.js';
import type { InternalStatement, PublicStatement, Statement } from '../../common/report/statement.js';

/** The parameters as resolved (k or β solved for when the job asks) and as the report states them. */
export interface PublishedFigures {
  readonly k: number;
  readonly beta: number;
  /** The whole ε: the anonymization's plus the search's. */
  readonly epsilon: number;
  readonly delta: number;
  /** With the private search (levels "search"): the two parts of ε. */
  readonly search: { readonly anonymization: number; readonly selection: number } | undefined;
}

/** Figures of the sample and of the run. */
export interface InternalFigures {
  readonly records: number;
  readonly released: number;
  readonly classes: number;
  readonly minClassSize: number;
  readonly suppressed: number;
  readonly loss: number;
  /** The count queries' mean relative error; none when not measured. */
  readonly queryError: number | undefined;
}

export function publishedStatement(f: PublishedFigures): PublicStatement {
  const delta = f.delta.toExponential(3);
  return {
    guarantee: {
      name: '(ε,δ)-differential privacy',
      statement: safeKStatement({ epsilon: f.epsilon, delta, beta: f.beta, k: f.k, search: f.search }),
      formula: 'δ = d(k, β, ε) = max_{n ≥ ⌈k/γ − 1⌉} Pr[Bin(n, β) > γn],  γ = 1 − (1 − β)e^{−ε},  ε ≥ −ln(1 − β)',
      source: 'Li, Qardaji, Su, "On sampling, anonymization, and differential privacy", ASIACCS 2012, Theorem 5; unbounded neighbours (add/remove one record)',
    },
    summary: [
      `Each record was kept with probability ${f.beta}, its columns were generalized at levels ${levelsWords(f)}, and every group of fewer than ${f.k} identical records was deleted.`,
      `The release is (ε = ${f.epsilon}, δ = ${delta})-differentially private with respect to adding or removing one record${f.search ? searchCondition(f.search.selection, f.search.anonymization) : ', provided the levels were fixed without looking at this data'}.`,
    ],
    warnings: [],
  };
}

export function statement(f: PublishedFigures, c: InternalFigures): Statement {
  const delta = f.delta.toExponential(3);
  const internal: InternalStatement = {
    summary: [
      `Each record was kept with probability ${f.beta} (an exact Bernoulli draw), its columns were generalized at levels ${levelsWords(f)}, and every group of fewer than ${f.k} identical records was deleted.`,
      `The release is (ε = ${f.epsilon}, δ = ${delta})-differentially private${f.search ? searchCondition(f.search.selection, f.search.anonymization) : ' — provided the levels were fixed without looking at this data'}: for any set of possible releases, adding or removing one record changes its probability from P to at most e^${f.epsilon}·P + ${delta}.`,
      `It holds ${c.released.toLocaleString('en-US')} records in ${c.classes.toLocaleString('en-US')} classes of at least ${c.minClassSize} identical records; generalization loss ${c.loss.toFixed(3)}${c.queryError !== undefined && Number.isFinite(c.queryError) ? `, count-query relative error ${c.queryError.toFixed(4)}` : ''}.`,
    ],
    warnings: [
      `${c.suppressed.toLocaleString('en-US')} sampled record(s) were suppressed; this exact count is outside the theorem and appears only in the internal report.`,
      ...weakReleaseWarnings({ records: c.records, released: c.released, delta: f.delta, queryError: c.queryError }),
    ],
  };
  return { published: publishedStatement(f), internal };
}

/** The published sentences written again from report.json (verify): k and β from the parameters, ε and δ as derived. */
export function publishedStatementOf(report: Report): PublicStatement {
  const parameters = report.method.parameters as { k: number; sampling: number };
  const derived = report.method.derived as { epsilon: number; delta: number; epsilonAnonymization?: number; epsilonSelection?: number };
  return publishedStatement({
    k: parameters.k,
    beta: parameters.sampling,
    epsilon: derived.epsilon,
    delta: derived.delta,
    search: derived.epsilonSelection !== undefined && derived.epsilonAnonymization !== undefined ? { anonymization: derived.epsilonAnonymization, selection: derived.epsilonSelection } : undefined,
  });
}

const levelsWords = (f: PublishedFigures): string => (f.search ? 'chosen with a differentially private search' : 'given by the job');

/**
 * The guarantee in words. (ε,δ)-DP bounds every event's probability by
 * e^ε·P + δ; it is not "a factor e^ε except with probability δ" (probabilistic
 * DP). The theorem covers fixed levels only if they were chosen without
 * looking at this data, which the program cannot know, so it says so.
 */
export function safeKStatement(g: { epsilon: number; delta: string; beta: number; k: number; search: { anonymization: number; selection: number } | undefined }): string {
  return (
    `Publishing these generalized records is (ε = ${g.epsilon}, δ = ${g.delta})-differentially private${g.search ? ` (ε = ${g.search.anonymization} for sampling and k-anonymization plus ε_sel = ${g.search.selection} for the differentially private choice of the generalization, composed sequentially as SafePub argues; Custos has not re-checked that argument, which uses one sample for both)` : ''}: ` +
    `for any two inputs that differ by one person's record and any set S of possible releases, Pr[release ∈ S] ≤ e^ε·Pr[release′ ∈ S] + δ. ` +
    `It holds because each record was sampled with probability β = ${g.beta}, every class of identical released tuples with fewer than k = ${g.k} records was deleted, and ` +
    (g.search
      ? 'the generalization was chosen by the exponential mechanism on the sample, within the stated ε.'
      : 'the generalization levels were given by the job: the guarantee covers them only if they were chosen without looking at this data (levels picked after viewing its risk preview are a use of the data the theorem does not account for; the private search, levels "search", does).')
  );
}

/**
 * The condition of the total ε with the private search, in the sentence that states it: the search
 * and the anonymization both use the one sample, and their budgets add only by SafePub's argument
 * for that composition, which Custos has not re-checked.
 */
export function searchCondition(selection: number, anonymization: number): string {
  return ` — provided the private search (ε = ${selection}) and the sampling and k-anonymization (ε = ${anonymization}), both run on the same sample, compose sequentially as SafePub argues (an argument Custos has not re-checked)`;
}

/** A release that holds little of the data is below this share of the input's records. */
const LITTLE_KEPT = 0.1;
/** Count queries answered from the release are of little use above this mean relative error. */
const POOR_QUERY_ERROR = 0.5;

/**
 * Plain warnings for a release whose guarantee holds but which is weak or of little use: δ above
 * 1/n (the chance that the bound fails is larger than one person's share of the data), few records
 * kept, count queries answered poorly. They state facts of the input: internal report only.
 */
export function weakReleaseWarnings(f: { readonly records: number; readonly released: number; readonly delta: number; readonly queryError: number | undefined }): string[] {
  const out: string[] = [];
  if (f.delta > 1 / f.records) {
    out.push(`δ = ${f.delta.toExponential(2)} is above 1/n = ${(1 / f.records).toExponential(2)} for these ${f.records.toLocaleString('en-US')} records: the probability with which the bound may fail is larger than one person's share of the data, so one person's record could be exposed with it. Lower the sampling rate or raise k.`);
  }
  if (f.released < LITTLE_KEPT * f.records) {
    out.push(`The release keeps ${f.released.toLocaleString('en-US')} of ${f.records.toLocaleString('en-US')} records (${((100 * f.released) / f.records).toFixed(1)}%): it is of little use for analysis. Coarser levels or a smaller k keep more.`);
  }
  if (f.queryError !== undefined && Number.isFinite(f.queryError) && f.queryError > POOR_QUERY_ERROR) {
    out.push(`Count queries answered from the release are off by ${(100 * f.queryError).toFixed(0)}% on average: figures computed from it are unreliable.`);
  }
  return out;
}
