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
import { JobError } from '../../../jobs/method-kit/job-error.js';
import type { SafeKAnonymitySpec } from '../definition.js';
import { resolveRoles } from '../../../jobs/method-kit/plan.js';
import { generalizedView, releasedAsNumbers } from '../../../jobs/method-kit/generalized-view.js';
import type { MethodContext } from '../../../jobs/method-kit/method-context.js';
import type { MethodOutcome } from '../../../jobs/method-kit/outcome.js';
import { loadHierarchies, recodeAt, recodeColumns, type Recoding } from '../../../jobs/method-kit/recoding.js';
import { reidentificationSection } from '../../../jobs/method-kit/reidentification.js';

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
  return ` — provided the private search (ε_sel = ${selection}) and the sampling and k-anonymization (ε = ${anonymization}), both run on the same sample, compose sequentially as SafePub argues (an argument Custos has not re-checked)`;
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
      throw new JobError(`the lattice has ${nodes.toLocaleString('en-US')} nodes, more than the ${MAX_LATTICE_NODES.toLocaleString('en-US')} a full search scores; use searchStrategy "path" or fewer hierarchy levels`, 'method.searchStrategy');
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
  const fmtDelta = p.delta.toExponential(3);
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
      name: '(ε,δ)-differential privacy',
      statement: safeKStatement({ epsilon: totalEpsilon, delta: fmtDelta, beta: p.beta, k: p.k, search: search ? { anonymization: p.epsilon, selection: spec.searchEpsilon } : undefined }),
      formula: 'δ = d(k, β, ε) = max_{n ≥ ⌈k/γ − 1⌉} Pr[Bin(n, β) > γn],  γ = 1 − (1 − β)e^{−ε},  ε ≥ −ln(1 − β)',
      source: 'Li, Qardaji, Su, "On sampling, anonymization, and differential privacy", ASIACCS 2012, Theorem 5; unbounded neighbours (add/remove one record)',
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
          ? `${utility.queries.toLocaleString('en-US')} queries COUNT(*) WHERE A1=a1 ∧ … ∧ Ad=ad over original values, d ∈ {1,2,3}, answer ≥ 0.1% of the records, estimated from the generalized sample by spreading each record uniformly over the values it covers and dividing by β`
          : 'measured when the job runs',
      generalizationLoss: loss,
    },
    anonymity: {
      k: p.k,
      sampling: p.beta,
      samplingExact: formatRational(samplingExact),
      choice: search
        ? `${p.choice}; generalization chosen by the exponential mechanism (${spec.searchStrategy === 'lattice' ? `one choice among all ${search.nodes.toLocaleString('en-US')} lattice nodes; branches bounded well below the best are scored only if drawn` : `SafePub's walk up the lattice, budget split equally over the steps and the final choice`}; ε_sel = ${spec.searchEpsilon}; ` +
          `score = Σ over the sample's classes of g(size)·(1 − ${spec.searchLossWeight}·loss), loss taken from the hierarchies alone, g(s) = s for s ≥ k and max(0, ${search.slope}s − ${search.slope - 1}k) below, so Δu = ${search.slope}; drawn exactly by rejection with exact Bernoulli(e^−γ) coins)`
        : p.choice,
      neighbours: 'unbounded: datasets that differ by adding or removing one record (Li, Qardaji, Su 2012)',
      curve,
      columns: recoding.report,
      sampled: census.sampled,
    },
    suppressed: census.suppressedRows,
    summary: [
      `Each record was kept with probability ${p.beta} (an exact Bernoulli draw), its columns were generalized at levels ${search ? 'chosen with a differentially private search' : 'given by the job'}, and every group of fewer than ${p.k} identical records was deleted.`,
      `The release is (ε = ${totalEpsilon}, δ = ${fmtDelta})-differentially private${search ? searchCondition(spec.searchEpsilon, p.epsilon) : ' — provided the levels were fixed without looking at this data'}: for any set of possible releases, adding or removing one record changes its probability from P to at most e^${totalEpsilon}·P + ${fmtDelta}.`,
      `It holds ${census.rows.length.toLocaleString('en-US')} records in ${census.classes.toLocaleString('en-US')} classes of at least ${census.minClassSize} identical records; generalization loss ${loss.toFixed(3)}${utility && Number.isFinite(utility.error) ? `, count-query relative error ${utility.error.toFixed(4)}` : ''}.`,
    ],
    externalSummary: [
      `Each record was kept with probability ${p.beta}, its columns were generalized at levels ${search ? 'chosen with a differentially private search' : 'given by the job'}, and every group of fewer than ${p.k} identical records was deleted.`,
      `The release is (ε = ${totalEpsilon}, δ = ${fmtDelta})-differentially private with respect to adding or removing one record${search ? searchCondition(spec.searchEpsilon, p.epsilon) : ', provided the levels were fixed without looking at this data'}.`,
    ],
    warnings: [
      `${census.suppressedRows.toLocaleString('en-US')} sampled record(s) were suppressed; this exact count is outside the theorem and appears only in the internal report.`,
      ...weakReleaseWarnings({ records: table.rowCount, released: census.rows.length, delta: p.delta, queryError: utility?.error }),
    ],
  };
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

