import { createHash } from 'node:crypto';
import { basename, resolve } from 'node:path';
import { drawCommonPool, estimatePool, meanRelativeError, type CommonPool } from '../../common/compare/common-pool.js';
import { cannotRunText, COMPARISON_SCHEMA, DATA_DEPENDENT_CHOICE, type CandidateResult, type Comparison, type SkippedCandidate } from '../../common/compare/comparison.js';
import { frontier } from '../../common/compare/frontier.js';
import { own } from '../../common/job/names.js';
import { CONFIDENTIAL_MARK } from '../../common/report/report-model.js';
import { CryptoRandomSource, SeededTestRandomSource, type RandomSource } from '../../common/random/source.js';
import type { Column, Table } from '../../common/table/table.js';
import type { ImportedTable, ImportOptions } from '../../io/input/import-types.js';
import { InputError } from '../../io/input/input-error.js';
import { readTable } from '../../io/input/read-table.js';
import type { Job } from '../../mechanisms/definitions.js';
import { definitionOf } from '../../mechanisms/definitions.js';
import { comparedPartsOf, nodeMechanismOf } from '../../mechanisms/node-registry.js';
import { JobError } from '../../common/job/job-error.js';
import type { NodeMechanism } from '../method-kit/node-mechanism.js';
import type { MethodOutcome } from '../method-kit/outcome.js';
import type { MethodContext } from '../method-kit/method-context.js';
import { runChainSteps, type ChainOutcomes } from '../chain/run-chain.js';
import { chainGuaranteeLabel, chainReleasedRecords, chainRisk, chainTitle, chainType } from '../chain/compare-chain.js';
import { prepareInput, readDates, sensitiveColumns } from '../prepare-input.js';
import { CancelledError } from '../progress.js';
import { SOFTWARE_VERSION } from '../version.js';
import { isCandidateProblem, skippedOf, type Candidate } from './candidates.js';
import { candidateRisk } from './candidate-risk.js';
import { guaranteeLabel, parametersInWords } from './candidate-words.js';
import { analysisAxes, checkUtilitySettings, releaseAnalysis } from '../utility/analysis-utility.js';

export interface CompareProgress {
  /** 0-based candidate being assessed; equal to `of` while the results are put together. */
  readonly candidate: number;
  readonly of: number;
  readonly label: string;
  /** Of the whole comparison, 0..1. */
  readonly fraction: number;
}

export interface CompareOptions {
  /** Seeded test randomness (hosts accept it only under CUSTOS_TEST_RANDOMNESS=1). */
  readonly testSeed?: number;
  readonly onProgress?: (progress: CompareProgress) => void;
  readonly signal?: AbortSignal;
  readonly now?: () => Date;
}

export const GENERALIZED_COUNTING =
  'a generalized value counts each input value it covers 1/|values covered| (spread uniformly over the input values that generalize to it), and a sampled release counts each record 1/β times';

const POOL_DESCRIPTION =
  'COUNT(*) WHERE A1=a1 ∧ … ∧ Ad=ad, d uniform in {1,2,3}, distinct columns among the non-identifier columns of every candidate (the sensitive ones included), ' +
  'each value uniform among the column\'s values, kept when the input answers at least 0.1% of its records; drawn once from the input and answered from every ' +
  'candidate\'s release: a value as collected counts where it matches; ' + GENERALIZED_COUNTING + '; a randomized sensitive value through the unbiased estimator ' +
  '(1[y = x] − (1−p)/m)/p (Wang, Han, Fu §6); a bucketized sensitive value by its share of the record\'s bucket in the sensitive table (Anatomy\'s estimator); ' +
  'a column the release withholds counts 1/|values|. Utility = mean |estimate − answer|/answer';

/** How the candidates read the input: the same file the same way, or the comparison means nothing. */
function readingKey(job: Job, baseDir: string, detected: ImportedTable): string {
  const i = job.input;
  return JSON.stringify({
    path: resolve(baseDir, i.path),
    delimiter: i.delimiter ?? detected.delimiter ?? null,
    encoding: i.encoding ?? detected.encoding ?? null,
    sheet: i.sheet ?? null,
    missing: i.missing,
    onBadRow: i.onBadRow,
    missingSensitive: i.missingSensitive,
    dates: i.dates ? Object.entries(i.dates).sort() : null,
  });
}

function importOptions(job: Job): ImportOptions {
  return {
    ...(job.input.delimiter ? { delimiter: job.input.delimiter } : {}),
    ...(job.input.encoding ? { encoding: job.input.encoding } : {}),
    sheet: job.input.sheet ?? null,
    missing: job.input.missing,
    onBadRow: job.input.onBadRow,
  };
}

/** A test seed per candidate from the comparison's seed and the candidate's own job, so the order of candidates changes no figure. */
function candidateSeed(seed: number, job: Pick<Job, 'attributes'> & { readonly method: unknown }): number {
  const digest = createHash('sha256').update(`${seed}\u0000${JSON.stringify({ attributes: job.attributes, method: job.method })}`).digest();
  return digest.readUInt32LE(0);
}

/** The columns every candidate may release: identifiers of any candidate are left out of the pool. */
function poolColumnsOf(truth: Table, candidates: readonly Candidate[]): Column[] {
  const identifier = (name: string) => candidates.some((c) => own(c.loaded.job.attributes, name) === 'identifier');
  return truth.columns.filter((c) => !identifier(c.name));
}

/** What every candidate is measured against: the input as read, the truth, the pool's columns and the pool. */
export interface ComparisonBasis {
  readonly inputPath: string;
  readonly read: ImportedTable;
  readonly truth: Table;
  readonly poolColumns: readonly Column[];
  readonly pool: CommonPool;
}

/**
 * Reads the input once, checks that every candidate reads it the same way
 * (each releases records: candidates.ts skips those that do not), and draws the pool (from the seed under test randomness,
 * else from the operating system's generator; either way once for all).
 * With `pool` given (a helper thread continuing a comparison) it is taken as drawn.
 */
export function comparisonBasis(candidates: readonly Candidate[], testSeed: number | undefined, pool?: CommonPool): ComparisonBasis {
  const first = candidates[0]!;
  const inputPath = resolve(first.loaded.baseDir, first.loaded.job.input.path);
  const read = readTable(inputPath, importOptions(first.loaded.job));
  const key = readingKey(first.loaded.job, first.loaded.baseDir, read);
  for (const c of candidates) {
    if (readingKey(c.loaded.job, c.loaded.baseDir, read) !== key) {
      throw new JobError(`candidate ${c.label} reads its input differently from ${first.label} (file or reading options); every candidate must read the same file the same way`, 'input');
    }
    if (c.loaded.job.input.sha256 && c.loaded.job.input.sha256 !== read.sha256) {
      throw new JobError(`candidate ${c.label}: the input's SHA-256 is ${read.sha256}, the job expects ${c.loaded.job.input.sha256}`, 'input.sha256');
    }
  }
  // Records left out for a missing sensitive value must be the same for all, or the truth would differ between candidates.
  if (first.loaded.job.input.missingSensitive === 'exclude') {
    const sensitive = JSON.stringify(sensitiveColumns(first.loaded.job).sort());
    const other = candidates.find((c) => JSON.stringify(sensitiveColumns(c.loaded.job).sort()) !== sensitive);
    if (other) throw new JobError(`candidate ${other.label} marks other sensitive columns than ${first.label} while input.missingSensitive "exclude" leaves out different records`, 'input.missingSensitive');
  }
  // Dates typed as text are compared as the candidates release them (ISO dates).
  const truth = (first.loaded.job.input.missingSensitive === 'exclude' ? prepareInput(first.loaded.job, read) : readDates(first.loaded.job, read)).table;
  if (truth.rowCount === 0) throw new InputError('the file has a header but no records', basename(inputPath));
  const poolColumns = poolColumnsOf(truth, candidates);
  const source: RandomSource = testSeed !== undefined ? new SeededTestRandomSource(testSeed) : new CryptoRandomSource();
  return { inputPath, read, truth, poolColumns, pool: pool ?? drawCommonPool(source, poolColumns, truth.rowCount) };
}

export type CandidateFigures = Omit<CandidateResult, 'frontier'>;

/**
 * One candidate: its mechanism run in memory (mode "run", no output), its
 * release answered on the pool, its own attack counted. Under test randomness
 * its generator comes from the seed and its job, never from its position.
 */
export function assessCandidate(c: Candidate, basis: ComparisonBasis, testSeed: number | undefined, progress: (fraction: number) => void = () => undefined): CandidateFigures {
  const job = c.loaded.job;
  const random = testSeed !== undefined ? new SeededTestRandomSource(candidateSeed(testSeed, c.loaded.chain?.job ?? job)) : new CryptoRandomSource();
  // A `utility` key naming a column this candidate does not release is its own problem (it is skipped, naming the key).
  checkUtilitySettings(job, basis.truth);
  const ctx: MethodContext = {
    random,
    mode: 'run',
    measureUtility: false,
    baseDir: c.loaded.baseDir,
    progress: (_stage, f) => progress(Math.min(1, Math.max(0, f))),
  };
  const prepared = prepareInput(job, basis.read);
  const from = { id: c.id, label: c.label, job: c.jobPath, grid: c.grid };
  if (c.loaded.chain) return chainFigures(from, runChainSteps(c.loaded.chain.steps, prepared, ctx), basis);
  const mechanism = nodeMechanismOf(job.method.type) as NodeMechanism<Job['method']>;
  const outcome: MethodOutcome = mechanism.run(job, prepared, ctx);
  const compared = comparedPartsOf(outcome.method.type);
  const released = compared.node.releasedRecords(outcome, basis.truth, basis.poolColumns);
  const error = meanRelativeError(basis.pool, estimatePool(basis.pool, released));
  // The job's `utility` key asks for the analysis-based utility too (a classifier, contingency tables).
  const analysis = job.utility ? analysisAxes(releaseAnalysis(job, prepared.table, outcome, false)) : {};
  return {
    ...from,
    method: { type: outcome.method.type, title: outcome.method.title },
    parameters: parametersInWords(outcome),
    guarantee: { label: guaranteeLabel(outcome), statement: outcome.guarantee.statement, holds: outcome.guarantee.holds === true },
    risk: candidateRisk(outcome, basis.truth.rowCount),
    utility: { ...(Number.isFinite(error) ? { relativeError: error } : {}), estimator: compared.definition.estimator, ...analysis },
    releasedRecords: released.records,
  };
}

/** A chain as one candidate (src/jobs/chain/compare-chain.ts): the composed guarantee, both attacks on the final release, the pool answered from it. */
function chainFigures(from: Pick<CandidateFigures, 'id' | 'label' | 'job' | 'grid'>, outcomes: ChainOutcomes, basis: ComparisonBasis): CandidateFigures {
  const released = chainReleasedRecords(outcomes, basis.truth, basis.poolColumns);
  const error = meanRelativeError(basis.pool, estimatePool(basis.pool, released));
  const { outcome } = outcomes;
  return {
    ...from,
    method: { type: chainType(outcomes), title: chainTitle(outcomes) },
    parameters: `step 1: ${parametersInWords(outcomes.identity)}; step 2: ${parametersInWords(outcomes.attribute)}`,
    guarantee: { label: chainGuaranteeLabel(outcomes, guaranteeLabel), statement: outcome.guarantee.statement, holds: outcome.guarantee.holds === true },
    risk: chainRisk(outcomes, basis.truth.rowCount),
    utility: { ...(Number.isFinite(error) ? { relativeError: error } : {}), estimator: comparedPartsOf(outcome.method.type).definition.estimator },
    releasedRecords: released.records,
  };
}

/** A candidate assessed, or skipped because its method refused it while running (its own problem: the others go on). */
export type CandidateAssessment = { readonly figures: CandidateFigures } | { readonly skipped: SkippedCandidate };

/** assessCandidate, a problem of the candidate's own (a JobError or InputError of its method) kept as "cannot run" rather than thrown. */
export function assessOrSkip(c: Candidate, basis: ComparisonBasis, testSeed: number | undefined, progress?: (fraction: number) => void): CandidateAssessment {
  try {
    return { figures: assessCandidate(c, basis, testSeed, progress) };
  } catch (error) {
    if (!isCandidateProblem(error)) throw error;
    const steps = c.loaded.chain?.steps.map((step) => step.method.type) ?? [c.loaded.job.method.type];
    return { skipped: skippedOf(c, error, 'run', { type: steps.join(','), title: steps.map((type) => definitionOf(type).metadata.title).join(', then ') }) };
  }
}

/** When no candidate could run: each named with its reason; the key kept when there was one candidate only. */
export function noCandidateRan(skipped: readonly SkippedCandidate[]): JobError {
  if (skipped.length === 1) return new JobError(`candidate ${skipped[0]!.label}: ${skipped[0]!.reason}`, skipped[0]!.key);
  return new JobError(`no candidate could run: ${skipped.map((s) => `${s.id}. ${s.label}: ${cannotRunText(s).replace(/^cannot run: /, '')}`).join('; ')}`);
}

/** The comparison from every candidate's figures: the frontier marked, the notes said. */
export function comparisonOf(basis: ComparisonBasis, figures: readonly CandidateFigures[], skipped: readonly SkippedCandidate[], testRandomness: boolean, started: number, now: () => Date = () => new Date()): Comparison {
  const onFrontier = frontier(figures.map((r) => ({ risk: r.risk.share, error: r.utility.relativeError ?? Number.NaN })));
  return {
    schema: COMPARISON_SCHEMA,
    confidential: CONFIDENTIAL_MARK,
    createdAt: now().toISOString(),
    software: { name: 'custos', version: SOFTWARE_VERSION, node: process.version, platform: `${process.platform}-${process.arch}` },
    testRandomness,
    input: { path: basis.inputPath, sha256: basis.read.sha256, rows: basis.truth.rowCount },
    pool: {
      description: POOL_DESCRIPTION,
      columns: basis.poolColumns.map((c) => c.name),
      queries: basis.pool.queries.length,
      requested: basis.pool.requested,
      attempts: basis.pool.attempts,
      minAnswer: basis.pool.minAnswer,
    },
    candidates: figures.map((r, i) => ({ ...r, frontier: onFrontier[i]! })),
    skipped: [...skipped].sort((a, b) => a.id - b.id),
    notes: [
      DATA_DEPENDENT_CHOICE,
      ...(skipped.length > 0
        ? [`${skipped.length === 1 ? 'One candidate' : `${skipped.length} candidates`} could not run and ${skipped.length === 1 ? 'is' : 'are'} left out of the frontier: ${[...skipped].sort((a, b) => a.id - b.id).map((s) => `${s.id}. ${s.label} (${cannotRunText(s)})`).join('; ')}.`]
        : []),
      'Risk is each method\'s own attack model counted in records (see each candidate\'s measure): a sensitive value recovered for randomized response and β-privacy, an identity for the k-anonymity methods. The shares are comparable as "records exposed", not as the same attack.',
      testRandomness
        ? 'Test randomness: the pool and every candidate\'s release come from seeded generators (the seed and the candidate\'s job), so the figures repeat; never a protected release.'
        : 'The pool was drawn once and every candidate answered the same queries; each candidate\'s release is one draw of its mechanism, so its figures vary a little from run to run.',
      'Nothing was released: the candidates\' tables were made in memory and dropped.',
    ],
    seconds: (Date.now() - started) / 1000,
  };
}

/**
 * Assesses every candidate on the same input in memory, one after another in
 * this thread; nothing is written. `elsewhere`, when given, assesses some of
 * the candidates on another thread meanwhile (the job worker's helper). A
 * candidate its method refuses is kept as "cannot run" and the others go on;
 * `skipped` are those refused before (their job or parameters). When none
 * could run, the comparison fails naming each with its reason.
 */
export async function compareCandidates(
  candidates: readonly Candidate[],
  options: CompareOptions & {
    readonly skipped?: readonly SkippedCandidate[];
    /** Hands some candidates to another thread; oneDone is called as each of them is finished there. */
    readonly elsewhere?: (basis: ComparisonBasis, oneDone: () => void) => { readonly indices: ReadonlySet<number>; readonly results: Promise<readonly CandidateAssessment[]> };
  } = {},
): Promise<Comparison> {
  const started = Date.now();
  if (candidates.length === 0) throw noCandidateRan(options.skipped ?? []);
  const basis = comparisonBasis(candidates, options.testSeed);
  const cancelled = () => {
    if (options.signal?.aborted) throw new CancelledError();
  };
  const results: CandidateAssessment[] = [];
  let done = 0;
  const tell = (label: string, within = 0) => options.onProgress?.({ candidate: Math.min(done, candidates.length), of: candidates.length, label, fraction: Math.min(1, (done + within) / candidates.length) });
  const away = options.elsewhere?.(basis, () => {
    done++;
    tell('');
  });
  for (const [i, c] of candidates.entries()) {
    if (away?.indices.has(i)) continue;
    // Between candidates the event loop runs: a cancel (and the helper's results) are heard here.
    await new Promise((next) => setImmediate(next));
    cancelled();
    tell(c.label);
    results.push(assessOrSkip(c, basis, options.testSeed, (f) => {
      cancelled();
      tell(c.label, f * 0.9);
    }));
    done++;
  }
  results.push(...((await away?.results) ?? []));
  const figures = results.flatMap((r) => ('figures' in r ? [r.figures] : [])).sort((a, b) => a.id - b.id);
  const skipped = [...(options.skipped ?? []), ...results.flatMap((r) => ('skipped' in r ? [r.skipped] : []))].sort((a, b) => a.id - b.id);
  if (figures.length === 0) throw noCandidateRan(skipped);
  tell('frontier');
  return comparisonOf(basis, figures, skipped, options.testSeed !== undefined, started, options.now);
}
