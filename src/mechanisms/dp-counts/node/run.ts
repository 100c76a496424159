import type { JobWith } from '../../../common/job/job-parts.js';
import { amplifiedEpsilon } from '../../../common/dp/sampling-amplification.js';
import { GRID_BITS } from '../../../common/random/exact-samplers.js';
import { ANSWERS_SHOWN, type DpReport } from '../../../common/report/report-model.js';
import type { ImportedTable } from '../../../io/input/import-types.js';
import { resolveDomains } from '../../../jobs/method-kit/domains.js';
import { resolveRoles } from '../../../jobs/method-kit/plan.js';
import type { MethodContext } from '../../../jobs/method-kit/method-context.js';
import type { MethodOutcome } from '../../../jobs/method-kit/outcome.js';
import type { DpCountsSpec } from '../definition.js';
import { planAnswers, sensitivityOf, trueAnswers, type AnswerPlan } from './answers.js';
import { answersTable } from './answers-table.js';
import { ATTACK_EPSILON, filteringAttacks, inferenceAttacks } from './attacks.js';
import { drawNoise, effectiveEpsilonOf, GLM_NOISE_TEXT, halfWidth } from './noise.js';
import { cellColumnsOf, correlationText, statement } from '../statement.js';

/**
 * The exact count of every distinct query (`answers.unique`, in its order). A run counts them
 * itself (`trueAnswers`, over the table in memory); bench/duckdb-counts.ts hands in counts DuckDB
 * made with one GROUP BY GROUPING SETS, to show that the noise and all that follows depend on the
 * counts and the plan alone, so a release from an engine's counts is byte-identical.
 */
export type ExactCounts = (answers: AnswerPlan, rowCount: number) => Float64Array;

/**
 * Noisy counts and marginals with exact discrete Laplace or correlated (generalized Laplace) noise
 * (“Correlated tuple data release via differential privacy”, 2021): the answers, their noise, the
 * accounting, the attacks run on them, and the report's account of it all.
 */
export function runDpCounts(job: JobWith<DpCountsSpec>, imported: ImportedTable, spec: DpCountsSpec, ctx: MethodContext, exactCounts: ExactCounts = trueAnswers): MethodOutcome {
  ctx.progress('analyze', 0);
  const { table } = imported;
  const plan = resolveRoles(job, table, { requireSensitive: false });
  const domains = resolveDomains(spec.domains, { imported, baseDir: ctx.baseDir }, cellColumnsOf(spec));
  const answers = planAnswers(spec, plan, table, ctx.random, { resolved: domains, inputPath: job.input.path });
  const { answered, unique, columns: cols } = answers;
  const { sensitivity, rule: sensitivityRule } = sensitivityOf(spec, answers);
  const b = sensitivity / spec.epsilon;
  const truth = exactCounts(answers, table.rowCount);
  if (truth.length !== answers.unique.length) throw new Error(`${truth.length} exact counts for ${answers.unique.length} distinct queries`);
  ctx.progress('release', 0);
  const noisy = drawNoise(ctx.random, spec, answers, truth, sensitivity, b);
  const { released } = noisy;
  const glm = noisy.correlated;
  ctx.progress('utility', 0);
  const effective = effectiveEpsilonOf(spec, answers, noisy, sensitivity, b);
  const epsilonEffective = effective?.value;
  const filtering = filteringAttacks(ctx.random, answers, truth, noisy, b);
  const inference = ctx.mode === 'run' ? inferenceAttacks(ctx.random, plan, table, cols, b) : [];
  const half = halfWidth(b, !glm);
  // Released answers below 0, counted on the published rows (repeats included): said, never hidden.
  const negative = ctx.mode === 'run' ? answers.slot.filter((i) => released[i]! < 0).length : 0;
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
  const dp: DpReport = {
    queries: answered.length,
    distinctQueries: unique.length,
    sensitivity,
    sensitivityRule,
    scale: b,
    noise: glm ? GLM_NOISE_TEXT : 'discrete Laplace',
    ...(glm ? { grid: `answers snapped to multiples of 2^−${GRID_BITS}` } : {}),
    correlation: correlationText(spec),
    epsilonPerAnswer: 1 / b,
    ...(epsilonEffective !== undefined ? { epsilonEffective } : {}),
    filtering,
    inference,
    ...(epsilonPrime ? { epsilonPrime } : {}),
    parts: spec.parts,
    ...(negative > 0 ? { negativeAnswers: negative } : {}),
    ...(shown.length > 0 ? { answers: shown } : {}),
  };
  const worstRemoval = filtering.length ? filtering.reduce((w, f) => (f.removalRelease > w.removalRelease ? f : w)) : undefined;
  const words = statement(
    spec,
    { answers: answered.length, sensitivity, scale: b, epsilonEffective: effective, negativeAnswers: negative },
    {
      distinctAnswers: unique.length,
      halfWidth: half,
      worstRemoval: worstRemoval ? { release: worstRemoval.removalRelease, iid: worstRemoval.removalIid } : undefined,
      inference: inference[0] ? { pAbove: inference[0].pAbove, pBelow: inference[0].pBelow, attackEpsilon: ATTACK_EPSILON } : undefined,
    },
  );
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
    // Correlated noise: no `holds` and no `epsilon`, the release as a whole claims no guarantee (the per-answer ε is dp.epsilonPerAnswer).
    guarantee: glm ? words.published.guarantee : { ...words.published.guarantee, holds: true, epsilon: spec.epsilon },
    risk: {
      adversary: 'sees every noisy answer and may know everything about all records but one; may filter correlated noise (filtering attack) or divide two large counts (differential-inference attack)',
    },
    utility: {
      relativeError: {},
      queryPool: `every answer has a 95% interval of ±${half.toPrecision(4)} around it (noise scale b = ${b.toPrecision(4)})`,
    },
    dp,
    summary: words.internal.summary,
    externalSummary: words.published.summary,
    warnings: words.internal.warnings,
    externalWarnings: words.published.warnings,
  };
}
