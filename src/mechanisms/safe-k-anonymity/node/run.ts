import type { JobWith } from '../../../common/job/job-parts.js';
import { deltaFor, largestBeta, minimumEpsilon, smallestK } from '../../../common/dp/sampling-amplification.js';
import { generalizedQueryError, generalizationLoss } from '../../../common/recoding/query-error.js';
import { scoreRule } from '../lattice-score.js';
import { latticeColumn, latticeSize } from '../lattice.js';
import { chooseGeneralization, choosePath } from '../lattice-search.js';
import { anonymizeSample, bernoulliSample, classesOf } from '../../../common/recoding/classes.js';
import { rationalFromNumber, formatRational } from '../../../common/exact/rational.js';
import { reidentificationRisk } from '../../../common/risk/reidentification.js';
import type { ImportedTable } from '../../../io/input/import-types.js';
import { JobError } from '../../../common/job/job-error.js';
import type { SafeKAnonymitySpec } from '../definition.js';
import { statement } from '../statement.js';
import { resolveRoles } from '../../../jobs/method-kit/plan.js';
import { generalizedView, releasedAsNumbers } from '../../../jobs/method-kit/generalized-view.js';
import type { MethodContext } from '../../../jobs/method-kit/method-context.js';
import type { MethodOutcome } from '../../../jobs/method-kit/outcome.js';
import { loadHierarchies, recodeAt, recodeColumns, type Recoding } from '../../../jobs/method-kit/recoding.js';
import { reidentificationSection } from '../../../jobs/method-kit/reidentification.js';
import { formatCount } from '../../../common/format/numbers.js';

const POOL_WORK_LIMIT = 3e8;
/** Beyond this the full search's score arrays and time grow too large; the path walk still works. */
const MAX_LATTICE_NODES = 2_000_000;

interface Parameters {
  readonly k: number;
  readonly beta: number;
  readonly epsilon: number;
  readonly delta: number;
  readonly choice: string;
}

/** Resolves k, β and (ε, δ), solving for k or β when the job asks, and explains the choice. */
export function resolveParameters(spec: SafeKAnonymitySpec): Parameters {
  // With a DP search, the selection's budget comes out of the target: ε_anon = ε − ε_sel.
  const t = spec.target && spec.levels === 'search' ? { ...spec.target, epsilon: spec.target.epsilon - spec.searchEpsilon } : spec.target;
  if (t && !(t.epsilon > 0)) throw new JobError(`the target ε must exceed the search budget ε_sel = ${spec.searchEpsilon}`, 'method.target.epsilon');
  const floorTo = (x: number, digits: number): number => Math.floor(x * 10 ** digits) / 10 ** digits;
  if (spec.k === 'auto') {
    const beta = spec.sampling as number;
    if (t!.epsilon < minimumEpsilon(beta)) throw new JobError(`ε = ${t!.epsilon} is below −ln(1−β) = ${minimumEpsilon(beta).toFixed(6)}, the smallest ε sampling at β = ${beta} allows`, 'method.target.epsilon');
    const k = smallestK(beta, t!.epsilon, t!.delta);
    if (k === null) throw new JobError(`no k up to 1,000,000 reaches δ ≤ ${t!.delta} at ε = ${t!.epsilon} with β = ${beta}`, 'method.target.delta');
    return { k, beta, epsilon: t!.epsilon, delta: deltaFor(k, beta, t!.epsilon).delta, choice: `k = ${k} is the smallest k with δ = d(k, ${beta}, ${t!.epsilon}) ≤ ${t!.delta} (exponential search, then bisection; d does not increase with k)` };
  }
  const k = spec.k;
  if (spec.sampling === 'auto') {
    const raw = largestBeta(k, t!.epsilon, t!.delta);
    const beta = raw === null ? null : floorTo(raw, 6);
    if (beta === null || beta <= 0 || deltaFor(k, beta, t!.epsilon).delta > t!.delta) {
      throw new JobError(`no sampling rate reaches δ ≤ ${t!.delta} at ε = ${t!.epsilon} with k = ${k}; raise k or ε`, 'method.target');
    }
    return { k, beta, epsilon: t!.epsilon, delta: deltaFor(k, beta, t!.epsilon).delta, choice: `β = ${beta} is the largest sampling rate (to 6 decimals, verified) with d(${k}, β, ${t!.epsilon}) ≤ ${t!.delta}; ε alone would allow up to 1 − e^−ε = ${(1 - Math.exp(-t!.epsilon)).toFixed(6)}` };
  }
  const beta = spec.sampling;
  const epsilon = t?.epsilon ?? spec.epsilon ?? Math.max(1, Math.ceil(minimumEpsilon(beta) * 1000) / 1000);
  if (epsilon < minimumEpsilon(beta)) throw new JobError(`ε = ${epsilon} is below −ln(1−β) = ${minimumEpsilon(beta).toFixed(6)}, the smallest ε sampling at β = ${beta} allows`, t ? 'method.target.epsilon' : 'method.epsilon');
  const delta = deltaFor(k, beta, epsilon).delta;
  if (t && delta > t.delta) {
    const kNeeded = smallestK(beta, epsilon, t.delta);
    const betaAllowed = largestBeta(k, epsilon, t.delta);
    throw new JobError(
      `k = ${k} with β = ${beta} gives δ = ${delta.toExponential(3)} > ${t.delta} at ε = ${epsilon}; ` +
        `${kNeeded ? `the smallest k for this β is ${kNeeded}` : 'no k reaches it at this β'}` +
        `${betaAllowed ? `, the largest β for this k is ${floorTo(betaAllowed, 6)}` : ''} (or set k or sampling to "auto")`,
      'method.target.delta',
    );
  }
  return { k, beta, epsilon, delta, choice: t ? `k and β as given meet the target: δ = ${delta.toExponential(3)} ≤ ${t.delta}` : `k and β as given; δ reported at ε = ${epsilon}` };
}

/**
 * The theorem's conditions, checked on a run: every released class meets k (an
 * empty release has none), β is a sampling probability, δ is a probability
 * below 1, and ε is at least −ln(1 − β), below which no δ < 1 exists.
 */
export function safeKConditionsHold(p: { readonly k: number; readonly beta: number; readonly epsilon: number; readonly delta: number }, minClassSize: number): boolean {
  return (
    Number.isInteger(p.k) && p.k >= 1 &&
    (minClassSize === 0 || minClassSize >= p.k) &&
    p.beta > 0 && p.beta < 1 &&
    Number.isFinite(p.delta) && p.delta >= 0 && p.delta < 1 &&
    Number.isFinite(p.epsilon) && p.epsilon >= minimumEpsilon(p.beta)
  );
}

export function deltaCurve(k: number, beta: number): { epsilon: number; delta: number }[] {
  const start = minimumEpsilon(beta);
  const grid = [start, ...[0.25, 0.5, 1, 1.5, 2, 3, 4].filter((e) => e > start + 1e-9)];
  return grid.map((epsilon) => ({ epsilon, delta: deltaFor(k, beta, epsilon).delta }));
}

/** Sampling + strongly-safe k-anonymization ⇒ (ε,δ)-DP (Li, Qardaji, Su (2012), Theorem 5). */
export function runSafeKAnonymity(job: JobWith<SafeKAnonymitySpec>, imported: ImportedTable, spec: SafeKAnonymitySpec, ctx: MethodContext): MethodOutcome {
  ctx.progress('analyze', 0);
  const { table } = imported;
  const plan = resolveRoles(job, table, { requireSensitive: false });
  const released = plan.columns.filter((c) => c.role !== 'identifier').map((c) => c.column);
  const p = resolveParameters(spec);
  const samplingExact = rationalFromNumber(p.beta);
  ctx.progress('release', 0);
  // Assess previews the same mechanism in memory; nothing is written.
  const sample = bernoulliSample(ctx.random, table.rowCount, samplingExact);
  let recoding: Recoding;
  let search: { node: Record<string, number>; nodes: number; scored: number; score: number; bestScore: number; slope: number } | undefined;
  if (spec.levels === 'search') {
    const loaded = loadHierarchies(plan, released, spec.hierarchies, {}, ctx.baseDir);
    const lattice = released.map((column) => latticeColumn(column, loaded.get(column.name)?.hierarchy));
    const rule = scoreRule(p.k, lattice.length, sample.length, { lossWeight: spec.searchLossWeight });
    const nodes = latticeSize(lattice);
    if (spec.searchStrategy === 'lattice' && nodes > MAX_LATTICE_NODES) {
      throw new JobError(`the lattice has ${formatCount(nodes)} nodes, more than the ${formatCount(MAX_LATTICE_NODES)} a full search scores; use searchStrategy "path" or fewer hierarchy levels`, 'method.searchStrategy');
    }
    const choice = spec.searchStrategy === 'lattice' ? chooseGeneralization(ctx.random, rule, lattice, sample, spec.searchEpsilon, (f) => ctx.progress('release', 0.8 * f)) : choosePath(ctx.random, rule, lattice, sample, spec.searchEpsilon);
    const levels = Object.fromEntries(released.map((c, j) => [c.name, choice.node[j]!]));
    recoding = recodeAt(released, loaded, levels);
    search = { node: levels, nodes, scored: choice.scored, score: choice.score, bestScore: choice.bestScore, slope: rule.slope };
  } else recoding = recodeColumns(plan, released, spec.hierarchies, spec.levels, ctx.baseDir);
  const census = anonymizeSample(ctx.random, recoding.generalized, sample, p.k);
  const totalEpsilon = p.epsilon + (search ? spec.searchEpsilon : 0);
  ctx.progress('utility', 0);
  const quasiIndex = plan.columns.filter((c) => c.role !== 'identifier').map((c, i) => (c.role === 'quasi' ? i : -1)).filter((i) => i >= 0);
  const quasiGeneralized = quasiIndex.map((i) => recoding.generalized[i]!);
  const { classOf, count } = classesOf(quasiGeneralized, census.rows);
  const releasedSizes = new Uint32Array(count);
  for (let i = 0; i < classOf.length; i++) releasedSizes[classOf[i]!]!++;
  const reidentification = { ...reidentificationSection(plan, table.rowCount, null), release: reidentificationRisk(releasedSizes) };
  const poolSize = Math.min(5000, Math.max(200, Math.floor(POOL_WORK_LIMIT / Math.max(1, table.rowCount + census.rows.length))));
  const utility = ctx.mode === 'run' && ctx.measureUtility !== false ? generalizedQueryError(ctx.random, recoding.columns, recoding.generalized, census.rows, p.beta, { size: poolSize, maxAttempts: poolSize * 40 }) : undefined;
  // The published loss depends on the hierarchies and the released cells only: the data's distinct
  // values (which one record can change) are outside the DP guarantee.
  const loss = generalizationLoss(recoding.publicLoss, census.rows);
  const numeric = new Set(plan.columns.filter((c) => c.column.type !== 'text').map((c) => c.column.name));
  const view = generalizedView(
    recoding.generalized.map((g, i) => ({ ...g, numeric: releasedAsNumbers(g, numeric.has(g.name), recoding.report[i]!.level) })),
    census.rows,
  );
  // The whole guarantee at each point: the search's ε_sel adds to every ε of the theorem.
  const curve = deltaCurve(p.k, p.beta).map((c) => ({ epsilon: c.epsilon + (search ? spec.searchEpsilon : 0), delta: c.delta }));
  const words = statement(
    { k: p.k, beta: p.beta, epsilon: totalEpsilon, delta: p.delta, search: search ? { anonymization: p.epsilon, selection: spec.searchEpsilon } : undefined },
    { records: table.rowCount, released: census.rows.length, classes: census.classes, minClassSize: census.minClassSize, suppressed: census.suppressedRows, loss, queryError: utility?.error },
  );
  return {
    plan,
    releases: ctx.mode === 'run' ? [{ stem: 'release', sheetName: 'Release', table: view }] : [],
    method: {
      type: 'safe-k-anonymity',
      title: 'Sampling + safe k-anonymization',
      parameters: {
        k: p.k,
        sampling: p.beta,
        ...Object.fromEntries(recoding.report.filter((c) => c.level > 0).map((c) => [`level.${c.name}`, c.level])),
        ...(spec.target ? { targetEpsilon: spec.target.epsilon, targetDelta: spec.target.delta } : {}),
      },
      ...(search ? { internal: { scoredNodes: search.scored, chosenScore: search.score, bestScore: search.bestScore } } : {}),
      derived: {
        ...(search ? { epsilonAnonymization: p.epsilon, epsilonSelection: spec.searchEpsilon, searchStrategy: spec.searchStrategy, searchLossWeight: spec.searchLossWeight, latticeNodes: search.nodes } : {}),
        epsilon: totalEpsilon, delta: p.delta, gamma: 1 - (1 - p.beta) * Math.exp(-p.epsilon), minimumEpsilon: minimumEpsilon(p.beta), samplingExact: formatRational(samplingExact) },
    },
    guarantee: {
      ...words.published.guarantee,
      holds: safeKConditionsHold(p, census.minClassSize),
      epsilon: totalEpsilon,
      delta: p.delta,
    },
    risk: {
      adversary: 'may know everything about every record but one and tries to tell whether that record was in the input (differential privacy); identity disclosure is measured on the generalized quasi-identifiers',
      classes: census.classes,
      minClassSize: census.minClassSize,
      reidentification,
    },
    utility: {
      relativeError: utility && Number.isFinite(utility.error) ? { release: utility.error } : {},
      queryPool:
        utility !== undefined
          ? `${formatCount(utility.queries)} queries COUNT(*) WHERE A1=a1 ∧ … ∧ Ad=ad over original values, d ∈ {1,2,3}, answer ≥ 0.1% of the records, estimated from the generalized sample by spreading each record uniformly over the values it covers and dividing by β`
          : 'measured when the job runs',
      generalizationLoss: loss,
    },
    anonymity: {
      k: p.k,
      sampling: p.beta,
      samplingExact: formatRational(samplingExact),
      choice: search
        ? `${p.choice}; generalization chosen by the exponential mechanism (${spec.searchStrategy === 'lattice' ? `one choice among all ${formatCount(search.nodes)} lattice nodes; branches bounded well below the best are scored only if drawn` : `SafePub's walk up the lattice, budget split equally over the steps and the final choice`}; ε_sel = ${spec.searchEpsilon}; ` +
          `score = Σ over the sample's classes of g(size)·(1 − ${spec.searchLossWeight}·loss), loss taken from the hierarchies alone, g(s) = s for s ≥ k and max(0, ${search.slope}s − ${search.slope - 1}k) below, so Δu = ${search.slope}; drawn exactly by rejection with exact Bernoulli(e^−γ) coins)`
        : p.choice,
      neighbours: 'unbounded: datasets that differ by adding or removing one record (Li, Qardaji, Su 2012)',
      curve,
      columns: recoding.report,
      sampled: census.sampled,
    },
    suppressed: census.suppressedRows,
    summary: words.internal.summary,
    externalSummary: words.published.summary,
    warnings: words.internal.warnings,
    externalWarnings: words.published.warnings,
  };
}
