/**
 * Every sentence uniform perturbation writes about a release, each once. `published` is a function
 * of the job's parameters and what report.json shows (verify writes it again from there);
 * `internal` adds figures of the confidential data for the internal report only.
 */
import { domainSentence, randomizedDomainWarning } from '../../common/job/domain-words.js';
import { publishedRandomized, type StatedSensitive } from '../../common/randomized-response/published.js';
import { formatPercent } from '../../common/format/numbers.js';
import type { Report } from '../../common/report/report-model.js';
import type { InternalStatement, PublicStatement, Statement } from '../../common/report/statement.js';
import type { UniformPerturbationSpec } from './definition.js';

/** The guarantee's name, also the name the domain warning gives it. */
const GUARANTEE = 'ρ1–ρ2 privacy';
const SOURCE = 'Wang, Han, Fu, "Randomization Resilient To Sensitive Reconstruction", §3.1; Chaytor & Wang, VLDB 2010';

/** The job's parameters the sentences name. */
export type StatedParameters = Pick<UniformPerturbationSpec, 'rho1' | 'rho2' | 'epsilon' | 'delta'>;

/** What the release shows: its sensitive columns and the columns that form the micro groups. */
export interface PublishedFigures {
  readonly sensitive: readonly StatedSensitive[];
  readonly nonSensitive: readonly string[];
}

/** Figures of the confidential data: the (ε,δ) test on the true frequencies. */
export interface InternalFigures {
  readonly rowCount: number;
  readonly microGroups: number;
  /** Micro groups failing the test, over every sensitive column. */
  readonly leaking: number;
  /** Records in failing groups, for the first sensitive column. */
  readonly firstViolatingRows: number;
}

export function publishedStatement(spec: StatedParameters, f: PublishedFigures): PublicStatement {
  const first = f.sensitive[0]!;
  const domainWords = domainSentence(f.sensitive.map((s) => ({ column: s.column, source: s.source, m: s.m })));
  const domainWarning = randomizedDomainWarning(f.sensitive, GUARANTEE);
  const fromRho = spec.rho1 !== undefined && spec.rho2 !== undefined;
  return {
    guarantee: fromRho
      ? {
          name: GUARANTEE,
          statement:
            `An adversary whose prior belief that a record has a given sensitive value is at most ρ1 = ${spec.rho1} ` +
            `ends, after seeing the randomized value, with a posterior of at most ρ2 = ${spec.rho2}. ${domainWords}`,
          formula: 'γ = ρ2(1−ρ1)/(ρ1(1−ρ2)); p_max = (γ−1)/(m−1+γ); holds because γ_p = 1 + p·m/(1−p) ≤ γ',
          source: SOURCE,
        }
      : {
          name: GUARANTEE,
          statement:
            `Randomized response at retention p = ${first.p} bounds how far one record's value can move an adversary's belief: ` +
            `a prior ρ1 grows to at most ρ2 = γ_p·ρ1/(1−ρ1+γ_p·ρ1) (see the ρ curve per sensitive attribute). ${domainWords}`,
          formula: 'γ_p = 1 + p·m/(1−p); ρ1–ρ2 privacy holds whenever ρ2(1−ρ1)/(ρ1(1−ρ2)) ≥ γ_p',
          source: SOURCE,
        },
    summary: [
      `Each record's ${f.sensitive.map((s) => s.column).join(', ')} was kept with probability ${first.p} ` +
        'and otherwise replaced by a value drawn uniformly from its whole domain; every other released column is unchanged.',
      `This limits what one record reveals (ρ1–ρ2 privacy), but it does not protect groups: an adversary who knows a person's ${f.nonSensitive.join(', ')} ` +
        "can reconstruct the distribution of the sensitive value in that person's micro group.",
    ],
    // What the domain reveals is a property of the release its readers need to know.
    warnings: domainWarning ? [domainWarning.published] : [],
  };
}

export function statement(spec: StatedParameters, f: PublishedFigures, c: InternalFigures): Statement {
  const published = publishedStatement(spec, f);
  const first = f.sensitive[0]!;
  const domainWarning = randomizedDomainWarning(f.sensitive, GUARANTEE);
  const internal: InternalStatement = {
    summary: [
      ...published.summary,
      `${c.leaking === 0 ? 'No' : c.leaking.toLocaleString('en-US')} micro group${c.leaking === 1 ? '' : 's'} of ${c.microGroups.toLocaleString('en-US')} ` +
        `(${formatPercent(c.firstViolatingRows, c.rowCount)} of records for ${first.column}) fail the (ε = ${spec.epsilon}, δ = ${spec.delta}) reconstruction test: ` +
        (c.leaking > 0 ? 'use reconstruction privacy to protect them.' : 'none leaks at this setting.'),
    ],
    warnings: [
      ...(domainWarning ? [domainWarning.internal] : []),
      ...(c.leaking > 0 ? [`${c.leaking} micro group(s) can be reconstructed from this release (plain perturbation offers no reconstruction privacy).`] : []),
    ],
  };
  return { published, internal };
}

/** The published sentences written again from report.json (verify). */
export function publishedStatementOf(report: Report): PublicStatement {
  return publishedStatement(report.job['method'] as StatedParameters, publishedRandomized(report));
}
