/**
 * Every sentence reconstruction privacy writes about a release, each once. `published` is a
 * function of the job's parameters and what report.json shows (verify writes it again from there);
 * `internal` adds figures of the confidential data for the internal report only.
 */
import { domainSentence, randomizedDomainWarning } from '../../common/job/domain-words.js';
import { publishedRandomized, type StatedSensitive } from '../../common/randomized-response/published.js';
import { formatPercent } from '../../common/format/numbers.js';
import type { Report } from '../../common/report/report-model.js';
import type { InternalStatement, PublicStatement, Statement } from '../../common/report/statement.js';
import type { ReconstructionPrivacySpec } from './definition.js';

const GUARANTEE = '(ε,δ)-reconstruction privacy';

/** The job's parameters the sentences name. */
export type StatedParameters = Pick<ReconstructionPrivacySpec, 'retention' | 'epsilon' | 'delta' | 'bound'>;

/** What the release shows: its sensitive columns, the micro groups' columns, and the groups failing the test (the guarantee's own figure). */
export interface PublishedFigures {
  readonly sensitive: readonly StatedSensitive[];
  readonly nonSensitive: readonly string[];
  /** Micro groups of the release that fail the (ε,δ) test, over every sensitive column. */
  readonly violatingAfter: number;
}

/** Figures of the confidential data and of the run. */
export interface InternalFigures {
  readonly rowCount: number;
  /** Micro groups failing the test under plain randomized response at the same retention, over every sensitive column. */
  readonly violatingBefore: number;
  /** The first sensitive column's micro groups and its records in failing groups before. */
  readonly first: { readonly column: string; readonly microGroups: number; readonly violatingRowsBefore: number };
  /** The first column's mean relative errors (reconstruction privacy, plain perturbation); none when only assessed. */
  readonly errors: { readonly reconstructionPrivacy: number | undefined; readonly uniformPerturbation: number | undefined } | undefined;
  /** Records not published (groups that could not be protected or lost every sampling coin). */
  readonly suppressedRows: number;
  /** Each release file and its rows. */
  readonly releases: readonly { readonly stem: string; readonly rows: number }[];
}

export function publishedStatement(spec: StatedParameters, f: PublishedFigures): PublicStatement {
  const domainWarning = randomizedDomainWarning(f.sensitive, GUARANTEE);
  return {
    guarantee: {
      name: GUARANTEE,
      statement: `${reconstructionStatement(spec.epsilon, spec.delta, f.violatingAfter)} ${domainSentence(f.sensitive.map((s) => ({ column: s.column, source: s.source, m: s.m })))}`,
      formula:
        spec.bound === 'full'
          ? 'δ ≤ min{U1, L1}, U1 = (e^θ/(1+θ)^(1+θ))^μ, L1 = (e^−θ/(1−θ)^(1−θ))^μ, μ = n(fp + (1−p)/m), θ = εpf/(fp + (1−p)/m); equivalently n ≤ s_g = ln δ / (w ln Y)'
          : 'δ ≤ min{U2, L2}, U2 = exp(−θ²μ/(2+θ)), L2 = exp(−θ²μ/2), μ = n(fp + (1−p)/m), θ = εpf/(fp + (1−p)/m); equivalently n ≤ s_g = −2 ln δ / (w θ²)',
      source: 'Wang, Han, Fu, "Randomization Resilient To Sensitive Reconstruction", Corollary 4.10, Theorems 5.11/5.13/5.16, Algorithm 1',
    },
    summary: [...method(spec, f), reconstructionStatement(spec.epsilon, spec.delta, f.violatingAfter)],
    warnings: [...(domainWarning ? [domainWarning.published] : []), ...separateFiles(f)],
  };
}

export function statement(spec: StatedParameters, f: PublishedFigures, c: InternalFigures): Statement {
  const published = publishedStatement(spec, f);
  const domainWarning = randomizedDomainWarning(f.sensitive, GUARANTEE);
  const warnings: string[] = [];
  if (domainWarning) warnings.push(domainWarning.internal);
  if (f.violatingAfter > 0) {
    warnings.push(
      `${f.violatingAfter} micro group(s) pass only "modulo coin flips": the sampling coins gave them more trials than their safe size (s_g). ` +
        'Set method.strict to true to trim them so every group passes the exact test.',
    );
  }
  if (c.suppressedRows > 0) warnings.push(`${c.suppressedRows} record(s) in groups that could not be protected (a safe size below one record) or lost every sampling coin were not published.`);
  for (const r of c.releases) {
    // Scaling repeats sampled rows up to each group's size and rounds with a coin: the total can pass n.
    if (r.rows > c.rowCount) {
      warnings.push(
        `${c.releases.length === 1 ? 'The release' : `The release file ${r.stem}.csv`} has ${r.rows.toLocaleString('en-US')} rows, ${(r.rows - c.rowCount).toLocaleString('en-US')} more than the input's ${c.rowCount.toLocaleString('en-US')}: ` +
          'each sampled micro group is scaled back to its size by repeating its sampled rows, and the number of copies is rounded with a coin, so a release can hold a few more rows than the input. Counts stay unbiased.',
      );
    }
  }
  warnings.push(...separateFiles(f));
  const internal: InternalStatement = {
    summary: [
      ...method(spec, f),
      `Before: under plain randomized response at the same retention, ${c.violatingBefore.toLocaleString('en-US')} of ${c.first.microGroups.toLocaleString('en-US')} micro groups (${formatPercent(c.first.violatingRowsBefore, c.rowCount)} of records for ${c.first.column}) fail the (ε = ${spec.epsilon}, δ = ${spec.delta}) reconstruction test. After: ${f.violatingAfter.toLocaleString('en-US')}.`,
      c.errors
        ? `Cost: count queries that fix a sensitive value, answered from the release, have a mean relative error of ${fmt(c.errors.reconstructionPrivacy)} (plain randomized response: ${fmt(c.errors.uniformPerturbation)}).`
        : 'Run the job to measure the utility cost on the actual release.',
    ],
    warnings,
  };
  return { published, internal };
}

/** The published sentences written again from report.json (verify). */
export function publishedStatementOf(report: Report): PublicStatement {
  return publishedStatement(report.job['method'] as StatedParameters, { ...publishedRandomized(report), violatingAfter: report.risk.violatingAfter ?? 0 });
}

/** What was protected and how: the summary's first two sentences, published and internal alike. */
function method(spec: StatedParameters, f: PublishedFigures): string[] {
  return [
    `This release protects ${f.sensitive.map((s) => s.column).join(', ')} against an adversary who knows a person's ${f.nonSensitive.join(', ')} and reconstructs the distribution of the sensitive value in that person's micro group (the records sharing those values).`,
    `Each record's sensitive value was kept with probability ${spec.retention} and otherwise replaced by a random value from its domain; micro groups too large to be safe were sampled down to the largest size that passes the test (their safe size) and scaled back to their original size.`,
  ];
}

function separateFiles(f: PublishedFigures): string[] {
  return f.sensitive.length > 1 ? [`Each sensitive attribute has its own release file; do not join them (${f.sensitive.map((s) => s.column).join(', ')}).`] : [];
}

/**
 * What the (ε,δ) test of Corollary 4.10 establishes, in words: it compares the
 * Chernoff bounds with δ, not the exact probabilities, so it promises nothing
 * about how likely a reconstruction within ±ε is (an exactly computed passing
 * group can be reconstructed within ±ε with probability 0.977). The sentence
 * that the test holds is written only when every group passes.
 */
export function reconstructionStatement(epsilon: number, delta: number, failing: number): string {
  const test =
    `the (ε = ${epsilon}, δ = ${delta}) reconstruction test: for each sensitive value, the Chernoff bounds on the probability that ` +
    `the adversary's reconstruction misses the value's frequency by more than ${epsilon} relative error (above or below) are both at least ${delta}`;
  const caveat = ' The test compares bounds, not exact probabilities: it does not promise that a reconstruction within that error happens with probability at most 1 − δ.';
  return failing === 0
    ? `Every micro group of the release passes ${test}.${caveat}`
    : `${failing} micro group(s) of the release do NOT pass ${test} (they pass only modulo the sampling coins); the guarantee does not hold for them.${caveat}`;
}

function fmt(value: number | undefined): string {
  return value === undefined || Number.isNaN(value) ? 'n/a' : value.toFixed(4);
}
