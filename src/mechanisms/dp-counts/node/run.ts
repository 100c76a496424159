import type { JobWith } from '../../../common/job/job-parts.js';
import { amplifiedEpsilon } from '../../../common/dp/sampling-amplification.js';
import { GRID_BITS } from '../../../common/random/exact-samplers.js';
import { ANSWERS_SHOWN, type DpReport } from '../../../common/report/report-model.js';
import type { ImportedTable } from '../../../io/input/import-types.js';
import { domainAdvice, resolveDomains } from '../../../jobs/method-kit/domains.js';
import { resolveRoles } from '../../../jobs/method-kit/plan.js';
import type { MethodContext } from '../../../jobs/method-kit/method-context.js';
import type { MethodOutcome } from '../../../jobs/method-kit/outcome.js';
import type { DpCountsSpec } from '../definition.js';
import { planAnswers, sensitivityOf, trueAnswers } from './answers.js';
import { answersTable } from './answers-table.js';
import { ATTACK_EPSILON, filteringAttacks, inferenceAttacks } from './attacks.js';
import { drawNoise, effectiveEpsilonOf, epsilonEffectiveText, GLM_APPROXIMATION, GLM_NOISE_TEXT, halfWidth } from './noise.js';

/** The columns whose values are cells of the release (marginals' columns, the series column): each needs a domain decision. */
export function cellColumnsOf(spec: DpCountsSpec): string[] {
  return [...new Set([...(spec.queries === 'marginals' ? spec.columns! : []), ...(spec.series ? [spec.series.by] : [])])];
}

/**
 * Noisy counts and marginals with exact discrete Laplace or correlated (generalized Laplace) noise
 * (“Correlated tuple data release via differential privacy”, 2021): the answers, their noise, the
 * accounting, the attacks run on them, and the report's account of it all.
 */
export function runDpCounts(job: JobWith<DpCountsSpec>, imported: ImportedTable, spec: DpCountsSpec, ctx: MethodContext): MethodOutcome {
  ctx.progress('analyze', 0);
  const { table } = imported;
  const plan = resolveRoles(job, table, { requireSensitive: false });
  const domains = resolveDomains(spec.domains, { imported, baseDir: ctx.baseDir }, cellColumnsOf(spec));
  const answers = planAnswers(spec, plan, table, ctx.random, { resolved: domains, inputPath: job.input.path });
  const { answered, unique, known, columns: cols, groupColumn } = answers;
  const { sensitivity, rule: sensitivityRule } = sensitivityOf(spec, answers);
  const b = sensitivity / spec.epsilon;
  const truth = trueAnswers(answers, table.rowCount);
  ctx.progress('release', 0);
  const noisy = drawNoise(ctx.random, spec, answers, truth, sensitivity, b);
  const { released, rho } = noisy;
  const glm = noisy.correlated;
  ctx.progress('utility', 0);
  const effective = effectiveEpsilonOf(spec, answers, noisy, sensitivity, b);
  const epsilonEffective = effective?.value;
  const epsilonEffectiveExact = effective?.exact ?? true;
  const filtering = filteringAttacks(ctx.random, answers, truth, noisy, b);
  const inference = ctx.mode === 'run' ? inferenceAttacks(ctx.random, plan, table, cols, b) : [];
  const half = halfWidth(b, !glm);
  // Released answers below 0, counted on the published rows (repeats included): said, never hidden.
  const negative = ctx.mode === 'run' ? answers.slot.filter((i) => released[i]! < 0).length : 0;
  const negativeNote = negative > 0 ? [negativeText(negative)] : [];
  // The first answers as published (released values only), for the results view.
  const shown =
    ctx.mode === 'run'
      ? answered.slice(0, ANSWERS_SHOWN).map((a, i) => {
          const value = released[answers.slot[i]!]!;
          const query = [...a.query.where].map(([c, code]) => `${cols[c]!.name} = ${cols[c]!.dictionary[code]}`).join(' ∧ ') || 'all records';
          return { query, ...(spec.parts > 1 ? { part: a.part + 1 } : {}), answer: value, lower95: value - half, upper95: value + half };
        })
      : [];
  const table_ = answersTable(answers, released, b, half, glm, spec.parts);
  // Each part is a Poisson sample at rate 1/P: the amplified ε′ depends on P alone, never on n.
  const prime = amplifiedEpsilon(spec.epsilon, 1 / spec.parts);
  const epsilonPrime = spec.parts > 1 ? [{ epsilon: spec.epsilon, epsilonPrime: prime, reported: Math.min(spec.epsilon, prime) }] : undefined;
  const correlationText = !glm
    ? 'independent discrete Laplace (two-sided geometric) noise, exact integer sampler'
    : spec.series
      ? `AR(1) along each series (ρ = ${rho}), streaming iteration, ${spec.series.iteration === 'keep' ? 'one W per stream' : 'W refreshed each step'}`
      : groupColumn !== undefined
        ? `block correlation ρ = ${rho} among answers with the same “${cols[groupColumn]!.name}”`
        : `AR(1) across the answers in order, ρ = ${rho}`;
  const dp: DpReport = {
    queries: answered.length,
    distinctQueries: unique.length,
    sensitivity,
    sensitivityRule,
    scale: b,
    noise: glm ? GLM_NOISE_TEXT : 'discrete Laplace',
    ...(glm ? { grid: `answers snapped to multiples of 2^−${GRID_BITS}` } : {}),
    correlation: correlationText,
    epsilonPerAnswer: 1 / b,
    ...(epsilonEffective !== undefined ? { epsilonEffective } : {}),
    filtering,
    inference,
    ...(epsilonPrime ? { epsilonPrime } : {}),
    parts: spec.parts,
    ...(negative > 0 ? { negativeAnswers: negative } : {}),
    ...(shown.length > 0 ? { answers: shown } : {}),
  };
  const warnings: string[] = [];
  // What the custodian can do about a warning: for the internal report only, not for readers of the release.
  const advice = new Map<string, string>();
  const cellColumns = cellColumnsOf(spec);
  const disclosed = cellColumns.filter((name) => !known.declared.has(cols.findIndex((c) => c.name === name)));
  const cellsCaveat = disclosed.length > 0 ? ` This covers the counts, not which cells exist: the values of ${[...new Set(disclosed)].map((n) => `“${n}”`).join(', ')} come from the input.` : '';
  if (disclosed.length > 0) {
    const cells = `The cells of ${[...new Set(disclosed)].map((n) => `“${n}”`).join(', ')} are the values present in the input (no public domain declared): each cell shows that its value occurs in the confidential file, published as is, outside ε-DP (a value held by one person shows that person is in the data).`;
    warnings.push(cells);
    advice.set(cells, `${domainAdvice(disclosed)} In the wizard: “Public values”.`);
  }
  if (glm) {
    warnings.push(
      `The noise of different answers is correlated: each single answer is ${(1 / b).toPrecision(3)}-DP on its own, but the vector of answers is not ε-DP on the strength of its marginals` +
        (epsilonEffective !== undefined ? `; ${epsilonEffectiveText(epsilonEffective, epsilonEffectiveExact)} (√(ΔᵀR⁻¹Δ)/b)` : '') +
        '. "Correlated tuple data release via differential privacy" (2021) claims a correlated-tuple DP guarantee for such noise; Custos cites it as the paper\'s claim and has not checked it.',
    );
  }
  const worstRemoval = filtering.length ? filtering.reduce((w, f) => (f.removalRelease > w.removalRelease ? f : w)) : undefined;
  const pct = (x: number): string => `${Math.max(0, 100 * x).toFixed(0)}%`;
  return {
    plan,
    releases: ctx.mode === 'run' ? [{ stem: 'answers', sheetName: 'Answers', table: table_ }] : [],
    method: {
      type: 'dp-counts',
      title: 'Differentially private counts',
      parameters: {
        epsilon: spec.epsilon,
        queries: spec.queries === 'marginals' ? `1- and 2-way marginals over ${spec.columns!.join(', ')}` : `${spec.queries.length} count queries`,
        noise: spec.noise,
        ...(spec.correlation ? { correlation: 'model' in spec.correlation ? `ar1 ρ = ${spec.correlation.rho}` : `groupBy ${spec.correlation.groupBy} ρ = ${spec.correlation.rho}` } : {}),
        ...(spec.series ? { series: `${spec.series.by} (${spec.series.iteration})` } : {}),
        parts: spec.parts,
      },
      derived: { sensitivity, scale: b, epsilonPerAnswer: 1 / b, answers: answered.length, distinctAnswers: unique.length, ...(epsilonEffective !== undefined ? { epsilonEffective } : {}) },
    },
    guarantee: guaranteeOf(spec, { glm, b, sensitivity, disclosed, declaredCells: cellColumns.filter((name) => !disclosed.includes(name)), epsilonEffective, epsilonEffectiveExact }),
    risk: {
      adversary: 'sees every noisy answer and may know everything about all records but one; may filter correlated noise (filtering attack) or divide two large counts (differential-inference attack)',
    },
    utility: {
      relativeError: {},
      queryPool: `every answer has a 95% interval of ±${half.toPrecision(4)} around it (noise scale b = ${b.toPrecision(4)})`,
    },
    dp,
    summary: [
      `${answered.length.toLocaleString('en-US')} counts were released${unique.length < answered.length ? ` (${unique.length.toLocaleString('en-US')} distinct; repeats return the same noisy answer)` : ''}, each with noise of scale ${b.toPrecision(4)} (95% of answers within ±${half.toPrecision(4)} of the truth).`,
      glm
        ? `The noise is correlated (${correlationText})${worstRemoval !== undefined ? `; the filtering attack removes at most ${pct(worstRemoval.removalRelease)} of the noise of a series of this release (${pct(worstRemoval.removalIid)} with independent Laplace noise on the same series)` : ''}. Each answer alone is ${(1 / b).toPrecision(3)}-DP; the answers together have no ε guarantee (ε_eff is a tail slope, not a bound).`
        : `The answers are ${spec.epsilon}-differentially private: adding or removing any one record changes their distribution by at most a factor e^${spec.epsilon} (a person with several records is covered only as several records).${cellsCaveat}`,
      ...(inference.length ? [`Dividing two noisy counts still reveals large groups: for the riskiest group the adversary's estimate is within ±${ATTACK_EPSILON * 100}% of the truth with probability ${(1 - inference[0]!.pAbove - inference[0]!.pBelow).toFixed(3)}.`] : []),
      ...negativeNote,
    ],
    externalSummary: [
      `${answered.length.toLocaleString('en-US')} counts were released, each with noise of scale ${b.toPrecision(4)}.`,
      glm ? `Each answer alone is ${(1 / b).toPrecision(3)}-DP; the noise is correlated (${correlationText}), and the answers together have no ε guarantee.` : `The answers are ${spec.epsilon}-differentially private (add/remove one record).${cellsCaveat}`,
      ...negativeNote,
    ],
    warnings: warnings.map((w) => (advice.has(w) ? `${w} ${advice.get(w)}` : w)),
    // They state the method's properties, not facts of the data: the reader of the answers needs them (not the custodian's remedy).
    externalWarnings: warnings,
  };
}

/** The guarantee as the theorem gives it: ε-DP for exact discrete Laplace, per-answer ε and ε_eff for correlated noise. */
function guaranteeOf(
  spec: DpCountsSpec,
  f: { readonly glm: boolean; readonly b: number; readonly sensitivity: number; readonly disclosed: readonly string[]; readonly declaredCells: readonly string[]; readonly epsilonEffective: number | undefined; readonly epsilonEffectiveExact: boolean },
): MethodOutcome['guarantee'] {
  const { glm, b, sensitivity, disclosed, declaredCells, epsilonEffective, epsilonEffectiveExact } = f;
  return glm
  ? {
      name: `ε = ${(1 / b).toPrecision(4)} for each answer alone (correlated noise; no guarantee for the answers together)`,
      statement:
        `Every single answer carries noise that approximates Laplace noise of scale b = ${b.toPrecision(4)}; the ideal mechanism is ${(1 / b).toPrecision(4)}-differentially private per answer. ` +
        `${GLM_APPROXIMATION} ` +
        'The answers were released together with correlated noise, so the joint release is NOT claimed to be ε-DP: ' +
        (epsilonEffective !== undefined ? `${epsilonEffectiveText(epsilonEffective, epsilonEffectiveExact)}.` : 'for two or more answers the joint density of the noise is unbounded at zero, so no finite ε bounds the answers together.'),
      formula: 'N = √(2W)·b·C·Z, W ~ Exp(1), Z ~ N(0, I), CCᵀ = R; each N_i ~ Lap(b); tail slope ε_eff = √(ΔᵀR⁻¹Δ)/b (not a privacy-loss bound)',
      source: '"Correlated tuple data release via differential privacy", Information Sciences 560 (2021), generalized Laplace mechanism; Kozubowski, Podgórski, Rychlik (2013); ε_eff = √(ΔᵀR⁻¹Δ)/b',
      // No `holds` and no `epsilon`: the release as a whole claims no guarantee (the per-answer ε is dp.epsilonPerAnswer).
    }
  : {
      // Undeclared cells come from the input: the name says the counts are what is covered.
      name: disclosed.length > 0 ? 'ε-differential privacy of the counts (their cells come from the input)' : 'ε-differential privacy',
      statement:
        `Adding or removing any one person's record changes the probability of any set of answers by at most a factor e^${spec.epsilon}: ` +
        `each answer carries exact discrete Laplace noise of scale b = Δ/ε = ${b.toPrecision(4)}, with Δ = ${sensitivity}.` +
        (spec.parts > 1 ? ` Each record was assigned to one of ${spec.parts} parts independently and uniformly at random, so adding or removing a record changes the answers of one part only: the parts together are ${spec.epsilon}-DP by parallel composition (add/remove neighbours).` : '') +
        (disclosed.length > 0 ? ` This covers the counts, not the list of cells: the values of ${[...new Set(disclosed)].join(', ')} are taken from the input (declare their domains to fix them in advance).` : '') +
        (declaredCells.length > 0 ? ` The cells of ${declaredCells.join(', ')} are the values of a domain declared in the job, which is public: they are the same whatever the data hold.` : ''),
      formula: 'Pr[Z = z] = (1 − a)/(1 + a)·a^{|z|}, a = e^{−ε/Δ}; L1 sensitivity Δ',
      source: 'Dwork et al. (Laplace mechanism); Canonne, Kamath, Steinke 2020 (exact discrete sampler); "Correlated tuple data release via differential privacy" (2021) §1',
      holds: true,
      epsilon: spec.epsilon,
    };
}

/** Why a published count is below 0, and what a reader may do about it without losing the guarantee. */
export function negativeText(negative: number): string {
  return (
    `${negative.toLocaleString('en-US')} released ${negative === 1 ? 'answer is' : 'answers are'} below 0: noise on a small count can carry it below zero. ` +
    'They are published as drawn, so sums and averages of answers stay unbiased; a reader who needs a table of non-negative whole numbers may round them up to 0, which post-processing of a differentially private release allows without weakening the guarantee.'
  );
}
