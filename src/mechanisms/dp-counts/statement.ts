/**
 * Every sentence dp-counts writes about a release, each once. `published` is a function of the
 * job's parameters and the figures report.json states (Δ, b, the number of answers, ε_eff, the
 * negative answers; verify writes it again from there); `internal` adds the attacks measured on the
 * true counts and the custodian's remedies, for the internal report only.
 */
import { domainAdvice } from '../../common/job/domain-words.js';
import { own } from '../../common/job/names.js';
import { GRID_BITS } from '../../common/random/exact-samplers.js';
import type { Report } from '../../common/report/report-model.js';
import type { InternalStatement, PublicStatement, Statement, WrittenAgain } from '../../common/report/statement.js';
import type { DpCountsSpec } from './definition.js';

/** The job's parameters the sentences name. */
export type StatedParameters = Pick<DpCountsSpec, 'epsilon' | 'queries' | 'columns' | 'noise' | 'correlation' | 'series' | 'parts' | 'domains'>;

/** What report.json states: the method's derived figures and the count of negative answers. */
export interface PublishedFigures {
  readonly answers: number;
  readonly sensitivity: number;
  /** The noise scale b = Δ/ε. */
  readonly scale: number;
  /** Correlated noise: ε_eff, exact (every possible record tried) or an upper bound. */
  readonly epsilonEffective: { readonly value: number; readonly exact: boolean } | undefined;
  readonly negativeAnswers: number;
}

/** Figures of the run: distinct answers, the 95% half-width, and the attacks measured on the true counts. */
export interface InternalFigures {
  readonly distinctAnswers: number;
  readonly halfWidth: number;
  /** The filtering attack's largest removal of noise, this release's and with independent noise. */
  readonly worstRemoval: { readonly release: number; readonly iid: number } | undefined;
  /** The riskiest group of the differential-inference attack, and the attack's ±share. */
  readonly inference: { readonly pAbove: number; readonly pBelow: number; readonly attackEpsilon: number } | undefined;
}

/** The columns whose values are cells of the release (marginals' columns, the series column): each needs a domain decision. */
export function cellColumnsOf(spec: Pick<DpCountsSpec, 'queries' | 'columns' | 'series'>): string[] {
  return [...new Set([...(spec.queries === 'marginals' ? spec.columns! : []), ...(spec.series ? [spec.series.by] : [])])];
}

/** How the noise of different answers is related, in words (also the report's dp.correlation). */
export function correlationText(spec: StatedParameters): string {
  const rho = spec.correlation?.rho ?? 0;
  return spec.noise !== 'generalized-laplace'
    ? 'independent discrete Laplace (two-sided geometric) noise, exact integer sampler'
    : spec.series
      ? `AR(1) along each series (ρ = ${rho}), streaming iteration, ${spec.series.iteration === 'keep' ? 'one W per stream' : 'W refreshed each step'}`
      : spec.correlation && 'groupBy' in spec.correlation
        ? `block correlation ρ = ${rho} among answers with the same “${spec.correlation.groupBy}”`
        : `AR(1) across the answers in order, ρ = ${rho}`;
}

/** The cell columns whose values come from the input (no domain declared), and those a declared domain fixes. */
function cellsOf(spec: StatedParameters): { readonly disclosed: readonly string[]; readonly declared: readonly string[] } {
  const cells = cellColumnsOf(spec);
  const isDeclared = (name: string): boolean => {
    const domain = spec.domains ? own(spec.domains, name) : undefined;
    return domain !== undefined && domain !== 'from-data';
  };
  return { disclosed: cells.filter((name) => !isDeclared(name)), declared: cells.filter(isDeclared) };
}

/** The published warnings, each a property of the method as configured (the internal ones add the remedy). */
function warningsOf(spec: StatedParameters, f: PublishedFigures): { readonly text: string; readonly advice?: string }[] {
  const b = f.scale;
  const { disclosed } = cellsOf(spec);
  const out: { text: string; advice?: string }[] = [];
  if (disclosed.length > 0) {
    out.push({
      text: `The cells of ${[...new Set(disclosed)].map((n) => `“${n}”`).join(', ')} are the values present in the input (no public domain declared): each cell shows that its value occurs in the confidential file, published as is, outside ε-DP (a value held by one person shows that person is in the data).`,
      advice: `${domainAdvice(disclosed)} In the wizard: “Public values”.`,
    });
  }
  if (spec.noise === 'generalized-laplace') {
    const e = f.epsilonEffective;
    out.push({
      text:
        `The noise of different answers is correlated: each single answer is ${(1 / b).toPrecision(3)}-DP on its own, but the vector of answers is not ε-DP on the strength of its marginals` +
        (e !== undefined ? `; ${epsilonEffectiveText(e.value, e.exact)} (√(ΔᵀR⁻¹Δ)/b)` : '') +
        '. "Correlated tuple data release via differential privacy" (2021) claims a correlated-tuple DP guarantee for such noise; Custos cites it as the paper\'s claim and has not checked it.',
    });
  }
  return out;
}

export function publishedStatement(spec: StatedParameters, f: PublishedFigures): PublicStatement {
  const b = f.scale;
  const { disclosed } = cellsOf(spec);
  const cellsCaveat = disclosed.length > 0 ? ` This covers the counts, not which cells exist: the values of ${[...new Set(disclosed)].map((n) => `“${n}”`).join(', ')} come from the input.` : '';
  return {
    guarantee: guaranteeOf(spec, f),
    summary: [
      `${f.answers.toLocaleString('en-US')} counts were released, each with noise of scale ${b.toPrecision(4)}.`,
      spec.noise === 'generalized-laplace'
        ? `Each answer alone is ${(1 / b).toPrecision(3)}-DP; the noise is correlated (${correlationText(spec)}), and the answers together have no ε guarantee.`
        : `The answers are ${spec.epsilon}-differentially private (add/remove one record).${cellsCaveat}`,
      ...(f.negativeAnswers > 0 ? [negativeText(f.negativeAnswers)] : []),
    ],
    // They state the method's properties, not facts of the data: the reader of the answers needs them (not the custodian's remedy).
    warnings: warningsOf(spec, f).map((w) => w.text),
  };
}

export function statement(spec: StatedParameters, f: PublishedFigures, c: InternalFigures): Statement {
  const published = publishedStatement(spec, f);
  const b = f.scale;
  const { disclosed } = cellsOf(spec);
  const cellsCaveat = disclosed.length > 0 ? ` This covers the counts, not which cells exist: the values of ${[...new Set(disclosed)].map((n) => `“${n}”`).join(', ')} come from the input.` : '';
  const pct = (x: number): string => `${Math.max(0, 100 * x).toFixed(0)}%`;
  const internal: InternalStatement = {
    summary: [
      `${f.answers.toLocaleString('en-US')} counts were released${c.distinctAnswers < f.answers ? ` (${c.distinctAnswers.toLocaleString('en-US')} distinct; repeats return the same noisy answer)` : ''}, each with noise of scale ${b.toPrecision(4)} (95% of answers within ±${c.halfWidth.toPrecision(4)} of the truth).`,
      spec.noise === 'generalized-laplace'
        ? `The noise is correlated (${correlationText(spec)})${c.worstRemoval !== undefined ? `; the filtering attack removes at most ${pct(c.worstRemoval.release)} of the noise of a series of this release (${pct(c.worstRemoval.iid)} with independent Laplace noise on the same series)` : ''}. Each answer alone is ${(1 / b).toPrecision(3)}-differentially private; the answers together have no ε guarantee (the report's effective ε is a tail slope, not a bound).`
        : `The answers are ${spec.epsilon}-differentially private: adding or removing any one record changes their distribution by at most a factor e^${spec.epsilon} (a person with several records is covered only as several records).${cellsCaveat}`,
      ...(c.inference ? [`Dividing two noisy counts still reveals large groups: for the riskiest group the adversary's estimate is within ±${c.inference.attackEpsilon * 100}% of the truth with probability ${(1 - c.inference.pAbove - c.inference.pBelow).toFixed(3)}.`] : []),
      ...(f.negativeAnswers > 0 ? [negativeText(f.negativeAnswers)] : []),
    ],
    // What the custodian can do about a warning: for the internal report only, not for readers of the release.
    warnings: warningsOf(spec, f).map((w) => (w.advice !== undefined ? `${w.text} ${w.advice}` : w.text)),
  };
  return { published, internal };
}

/**
 * The published sentences written again from report.json (verify). Whether ε_eff is exact or an
 * upper bound is not a figure report.json states (it depends on how many kinds of record the
 * queries tell apart, which the answers' cells show only in the release's tables): it is read from
 * the sentences' own "ε_eff ≤", so that choice between the two honest wordings is the one thing not
 * checked, and verify says so.
 */
export function publishedStatementOf(report: Report): WrittenAgain {
  const spec = report.job['method'] as StatedParameters;
  const derived = report.method.derived as { sensitivity: number; scale: number; answers: number; epsilonEffective?: number };
  const bound = report.guarantee.statement.includes('tail slope ε_eff ≤ ');
  const written = publishedStatement(spec, {
    answers: derived.answers,
    sensitivity: derived.sensitivity,
    scale: derived.scale,
    epsilonEffective: derived.epsilonEffective !== undefined ? { value: derived.epsilonEffective, exact: !bound } : undefined,
    negativeAnswers: report.dp?.negativeAnswers ?? 0,
  });
  return derived.epsilonEffective !== undefined
    ? { ...written, assumed: { figure: 'ε_eff exact or an upper bound', needs: 'the kinds of record the queries tell apart, which report.json does not state: the sentences are checked with the wording they carry (“ε_eff =” or “ε_eff ≤”)' } }
    : written;
}

/** The guarantee as the theorem gives it: ε-DP for exact discrete Laplace, per-answer ε and ε_eff for correlated noise. */
function guaranteeOf(spec: StatedParameters, f: PublishedFigures): PublicStatement['guarantee'] {
  const b = f.scale;
  const { disclosed, declared } = cellsOf(spec);
  const e = f.epsilonEffective;
  return spec.noise === 'generalized-laplace'
    ? {
        name: `ε = ${(1 / b).toPrecision(4)} for each answer alone (correlated noise; no guarantee for the answers together)`,
        statement:
          `Every single answer carries noise that approximates Laplace noise of scale b = ${b.toPrecision(4)}; the ideal mechanism is ${(1 / b).toPrecision(4)}-differentially private per answer. ` +
          `${GLM_APPROXIMATION} ` +
          'The answers were released together with correlated noise, so the joint release is NOT claimed to be ε-DP: ' +
          (e !== undefined ? `${epsilonEffectiveText(e.value, e.exact)}.` : 'for two or more answers the joint density of the noise is unbounded at zero, so no finite ε bounds the answers together.'),
        formula: 'N = √(2W)·b·C·Z, W ~ Exp(1), Z ~ N(0, I), CCᵀ = R; each N_i ~ Lap(b); tail slope ε_eff = √(ΔᵀR⁻¹Δ)/b (not a privacy-loss bound)',
        source: '"Correlated tuple data release via differential privacy", Information Sciences 560 (2021), generalized Laplace mechanism; Kozubowski, Podgórski, Rychlik (2013); ε_eff = √(ΔᵀR⁻¹Δ)/b',
      }
    : {
        // Undeclared cells come from the input: the name says the counts are what is covered.
        name: disclosed.length > 0 ? 'ε-differential privacy of the counts (their cells come from the input)' : 'ε-differential privacy',
        statement:
          `Adding or removing any one person's record changes the probability of any set of answers by at most a factor e^${spec.epsilon}: ` +
          `each answer carries exact discrete Laplace noise of scale b = Δ/ε = ${b.toPrecision(4)}, with Δ = ${f.sensitivity}.` +
          (spec.parts > 1 ? ` Each record was assigned to one of ${spec.parts} parts independently and uniformly at random, so adding or removing a record changes the answers of one part only: the parts together are ${spec.epsilon}-DP by parallel composition (add/remove neighbours).` : '') +
          (disclosed.length > 0 ? ` This covers the counts, not the list of cells: the values of ${[...new Set(disclosed)].join(', ')} are taken from the input (declare their domains to fix them in advance).` : '') +
          (declared.length > 0 ? ` The cells of ${declared.join(', ')} are the values of a domain declared in the job, which is public: they are the same whatever the data hold.` : ''),
        formula: 'Pr[Z = z] = (1 − a)/(1 + a)·a^{|z|}, a = e^{−ε/Δ}; L1 sensitivity Δ',
        source: 'Dwork et al. (Laplace mechanism); Canonne, Kamath, Steinke 2020 (exact discrete sampler); "Correlated tuple data release via differential privacy" (2021) §1',
      };
}

/** Why a published count is below 0, and what a reader may do about it without losing the guarantee. */
export function negativeText(negative: number): string {
  return (
    `${negative.toLocaleString('en-US')} released ${negative === 1 ? 'answer is' : 'answers are'} below 0: noise on a small count can carry it below zero. ` +
    'They are published as drawn, so sums and averages of answers stay unbiased; a reader who needs a table of non-negative whole numbers may round them up to 0, which post-processing of a differentially private release allows without weakening the guarantee.'
  );
}

/**
 * What the correlated noise costs the per-answer ε, said plainly: the grid draws are exact, but
 * the assembly is floating point and the coordinates are Laplace only up to the grid and rounding;
 * Custos has not bounded the difference.
 */
export const GLM_APPROXIMATION =
  `The noise is an approximation: W and Z are exact only on the 2^−${GRID_BITS} grid, their combination is computed in floating point and the answer snapped to 2^−${GRID_BITS} (against floating-point attacks), so each coordinate is Laplace only up to that grid and rounding. ` +
  'The per-answer ε is that of the ideal mechanism; the loss of the approximation has not been bounded. Use noise "laplace" (exact discrete Laplace, ε-DP proven) where a proven ε is required.';

/**
 * ε_eff in words: the maximum over every possible record, or an upper bound when they were too many
 * to try. It is the slope of the privacy loss far from the origin (the joint density decays like
 * e^(−√(xᵀR⁻¹x)/b)), not a bound on the loss: for two or more answers the symmetric multivariate
 * Laplace density is unbounded at zero, so no finite ε bounds the joint release, and ε_eff is
 * never stated as one.
 */
export function epsilonEffectiveText(value: number, exact: boolean): string {
  const slope = exact
    ? `over every possible record (every value the queries or declared domains name, and one value they do not), the worst one-person change has a tail slope ε_eff = ${value.toPrecision(4)}`
    : `the worst one-person change has a tail slope ε_eff ≤ ${value.toPrecision(4)} (an upper bound √(Δ/λ_min(R))/b: too many kinds of record to try one by one)`;
  return `${slope}: the rate at which its privacy loss grows far from the true answers, not a bound on the loss (for two or more answers the joint density of the noise is unbounded at zero, so no finite ε bounds the answers together)`;
}
