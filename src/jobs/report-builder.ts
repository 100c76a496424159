import { platform, release as osRelease } from 'node:os';
import type { ImportedTable } from '../io/input/import-types.js';
import { renamedColumnsWarning } from '../io/input/table-builder.js';
import { CONFIDENTIAL_MARK, REPORT_SCHEMA, withoutNonFinite, type Report, type ReportVariant } from '../common/report/report-model.js';
import type { Job } from '../mechanisms/definitions.js';
import type { MethodOutcome } from './method-kit/outcome.js';
import { publicJob } from './public-job.js';
import { metadataOf } from '../mechanisms/definitions.js';
import { SOFTWARE_VERSION } from './version.js';

export const TEST_NOTICE = 'TEST RANDOMNESS: produced with a seeded generator (CUSTOS_TEST_RANDOMNESS=1). NOT A PROTECTED RELEASE.';

export interface ReportContext {
  readonly kind: Report['kind'];
  readonly job: Job;
  readonly inputPath: string;
  readonly imported: ImportedTable;
  readonly outcome: MethodOutcome;
  readonly testRandomness: boolean;
  readonly createdAt: Date;
  readonly output?: Report['output'];
}

export function buildReport(ctx: ReportContext): Report {
  const { imported, outcome, job } = ctx;
  return withoutNonFinite<Report>({
    schema: REPORT_SCHEMA,
    kind: ctx.kind,
    variant: 'internal',
    createdAt: ctx.createdAt.toISOString(),
    software: { name: 'custos', version: SOFTWARE_VERSION, node: process.version, platform: `${platform()} ${osRelease()}` },
    testRandomness: ctx.testRandomness,
    ...(ctx.testRandomness ? { notice: TEST_NOTICE } : {}),
    confidential: CONFIDENTIAL_MARK,
    summary: outcome.summary,
    job: { ...job, input: { ...job.input, sha256: imported.sha256 } },
    input: {
      path: ctx.inputPath,
      sha256: imported.sha256,
      bytes: imported.bytes,
      rows: imported.table.rowCount,
      format: imported.format,
      ...(imported.encoding ? { encoding: imported.encoding } : {}),
      ...(imported.delimiter ? { delimiter: imported.delimiter } : {}),
      ...(imported.sheet ? { sheet: imported.sheet } : {}),
      rejectedRows: imported.rejectedRowCount,
      rejectedRowLines: imported.rejectedRows.map((r) => r.line),
      ...(imported.excludedMissingSensitive ? { excludedRows: imported.excludedMissingSensitive } : {}),
      ...(imported.renamedColumns?.length ? { renamedColumns: imported.renamedColumns.map((r) => ({ ...r })) } : {}),
      ...(imported.variables ? { variables: imported.variables.map(({ labelSet: _labelSet, ...v }) => ({ ...v, valueLabels: [...v.valueLabels] })) } : {}),
      columns: outcome.plan.columns.map((c) => ({
        name: c.column.name,
        role: c.role,
        defaulted: c.defaulted,
        type: c.column.type,
        distinct: c.column.distinct,
        missing: c.column.missing,
      })),
    },
    method: outcome.method,
    guarantee: outcome.guarantee,
    risk: outcome.risk,
    utility: outcome.utility,
    ...(outcome.buckets ? { buckets: outcome.buckets } : {}),
    ...(outcome.beta ? { beta: outcome.beta } : {}),
    ...(outcome.anonymity ? { anonymity: outcome.anonymity } : {}),
    ...(outcome.dp ? { dp: outcome.dp } : {}),
    ...(outcome.chain ? { chain: outcome.chain } : {}),
    ...(ctx.output ? { output: { ...ctx.output, ...(outcome.suppressed !== undefined ? { suppressed: outcome.suppressed } : {}) } } : {}),
    ...(outcome.cannotRun ? { cannotRun: outcome.cannotRun } : {}),
    warnings: [
      ...outcome.warnings,
      ...(imported.renamedColumns?.length ? [renamedColumnsWarning(imported.renamedColumns)] : []),
      ...(imported.rejectedRowCount > 0 ? [`${imported.rejectedRowCount} malformed row(s) of the input were rejected and not released.`] : []),
      ...(imported.excludedMissingSensitive ? [`${imported.excludedMissingSensitive} record(s) with a missing sensitive value were excluded and not released (input.missingSensitive "exclude").`] : []),
    ],
  });
}

/** Methods whose guarantee is differential privacy: an exact statistic of the input is outside it. */
export function isDifferentiallyPrivate(methodType: string): boolean {
  return metadataOf(methodType)?.differentiallyPrivate === true;
}

/** What the method and the job say in public, beside the report they describe. */
export interface PublicParts {
  readonly summary: readonly string[];
  readonly warnings: readonly string[];
  readonly job: Job;
  /** A chain's steps as published (each step's published summary and warnings). */
  readonly chain?: Report['chain'];
}

/**
 * The external variant, safe to publish beside the release. It is built by
 * listing what may be shown, never by removing what may not: a field added to
 * the internal report stays internal until it is named here. It holds the
 * method, parameters, guarantee and what the release itself shows; no fact of
 * the confidential input (path, size, checksum, per-column counts, riskiest
 * groups, counts before protection, the input's own risk, errors measured
 * against the true answers, suppressed counts).
 */
export function externalVariant(report: Report, parts: PublicParts): Report {
  const { risk } = report;
  // The (ε,δ) test runs on the true frequencies: its outcome is published only where it is the guarantee the release claims (the mechanism's metadata says).
  const testIsGuarantee = metadataOf(report.method.type)?.reportFigures.releaseMeetsReconstructionTest ?? false;
  const dp = isDifferentiallyPrivate(report.method.type);
  const beta = report.beta;
  const input = report.input;
  return withoutNonFinite<Report>({
    schema: report.schema,
    kind: report.kind,
    variant: 'external' satisfies ReportVariant,
    createdAt: report.createdAt,
    software: report.software,
    testRandomness: report.testRandomness,
    ...(report.notice ? { notice: report.notice } : {}),
    summary: parts.summary,
    job: publicJob(parts.job),
    input: {
      format: input.format,
      // Detected encodings, sniffed delimiters and inferred types are functions of every record: outside a DP guarantee.
      ...(input.encoding && !dp ? { encoding: input.encoding } : {}),
      ...(input.delimiter && !dp ? { delimiter: input.delimiter } : {}),
      // Released columns only: an identifier column is removed, and its name is a fact of the input the release does not need.
      columns: input.columns.filter((c) => c.role !== 'identifier').map((c) => ({ name: c.name, role: c.role, defaulted: c.defaulted, ...(dp ? {} : { type: c.type }) })) as Report['input']['columns'],
    },
    method: { type: report.method.type, title: report.method.title, parameters: report.method.parameters, derived: report.method.derived, ...(report.method.levels ? { levels: report.method.levels } : {}) },
    guarantee: publicGuarantee(report.guarantee),
    risk: {
      adversary: risk.adversary,
      ...(risk.violatingAfter !== undefined && testIsGuarantee ? { violatingAfter: risk.violatingAfter } : {}),
      ...(risk.classes !== undefined ? { classes: risk.classes, minClassSize: risk.minClassSize! } : {}),
      ...(risk.microGroups !== undefined && report.kind === 'release' ? { microGroups: risk.microGroups } : {}),
      ...(risk.bySensitive
        ? {
            bySensitive: risk.bySensitive.map((s) => ({
              column: s.column, domainSize: s.domainSize, domainDeclared: s.domainDeclared, retention: s.retention, retentionExact: s.retentionExact,
              microGroups: s.microGroups, ...(testIsGuarantee && s.violatingAfter !== undefined ? { violatingAfter: s.violatingAfter } : {}), relativeError: {},
              rhoCurve: s.rhoCurve, ...(s.releaseFile ? { releaseFile: s.releaseFile } : {}),
            })),
          }
        : {}),
      ...(risk.reidentification ? { reidentification: publicReidentification(risk.reidentification, parts.job) } : {}),
    },
    utility: {
      relativeError: {},
      queryPool: 'not shown in the external variant: query errors compare the release with the confidential data',
      ...(report.utility.loss !== undefined ? { loss: report.utility.loss, mse: report.utility.mse!, lossFunction: report.utility.lossFunction! } : {}),
      ...(report.utility.generalizationLoss !== undefined ? { generalizationLoss: report.utility.generalizationLoss } : {}),
    },
    ...(report.buckets ? { buckets: report.buckets } : {}),
    ...(beta
      ? {
          beta: {
            sensitive: beta.sensitive,
            values: beta.values.map((v) => ({ value: v.value, beta: v.beta, betaExact: v.betaExact, feasible: v.feasible })),
            sizeRange: beta.sizeRange,
            chosen: beta.chosen,
            fakeValues: beta.fakeValues,
            ...(beta.corruption ? { corruption: beta.corruption } : {}),
          },
        }
      : {}),
    ...(report.anonymity ? { anonymity: externalAnonymity(report.anonymity) } : {}),
    ...(report.dp ? { dp: externalDp(report.dp) } : {}),
    ...(report.chain ? { chain: parts.chain ?? withoutSentences(report.chain) } : {}),
    // A run's review is computed from the released files and the job: published, but for the reasons of acknowledgements.
    ...(report.review && report.kind === 'release' && report.review.basis === 'release' ? { review: publicReview(report.review) } : {}),
    // The release folder is named by the custodian (by default after the input): its name is not published.
    ...(report.output ? { output: { dir: 'release', rows: report.output.rows, files: report.output.files } } : {}),
    warnings: parts.warnings,
  });
}

/**
 * A chain's steps without their sentences, where the caller does not give the published ones (verify's
 * search for internal facts: the published sentences are report.json's summary and warnings, which
 * hold each step's): the methods and the guarantees' words are the same in both variants.
 */
function withoutSentences(chain: NonNullable<Report['chain']>): NonNullable<Report['chain']> {
  return { steps: chain.steps.map((s) => ({ ...s, summary: [], warnings: [] })) as unknown as NonNullable<Report['chain']>['steps'] };
}

function externalAnonymity(a: NonNullable<Report['anonymity']>): NonNullable<Report['anonymity']> {
  const { sampled: _sampled, epsilonPrime: _epsilonPrime, parts, ...rest } = a;
  return { ...rest, ...(parts ? { parts: parts.map(({ suppressed: _suppressed, size: _size, ...p }) => p) } : {}) } as NonNullable<Report['anonymity']>;
}

/** The DP section as published: no attack measured against the true answers, no copy of the answers (they are in answers.csv). */
function externalDp(dp: NonNullable<Report['dp']>): NonNullable<Report['dp']> {
  const { answers: _answers, ...rest } = dp;
  return { ...rest, filtering: [], inference: [] };
}

/**
 * Re-identification risk as published. With a population size from the job, the sampling
 * fraction π = n/N — and every journalist estimate, π over a class size — gives the input's size
 * away: those stay internal. The journalist's highest risk is its bound 1 / smallest class, which
 * the release shows. A sampling fraction given in the job is a parameter: its estimates are published.
 */
function publicReidentification(r: NonNullable<Report['risk']['reidentification']>, job: Job): NonNullable<Report['risk']['reidentification']> {
  const models = 'models' in job.method ? (job.method.models as readonly { readonly populationSize?: number }[]) : [];
  const size = models.find((m) => m.populationSize !== undefined)?.populationSize;
  if (size === undefined) return { quasiIdentifiers: r.quasiIdentifiers, population: r.population, release: r.release };
  const { journalistEstimateHighest: _highest, journalistEstimateAverage: _average, ...release } = r.release;
  return {
    quasiIdentifiers: r.quasiIdentifiers,
    population:
      `a population of ${size.toLocaleString('en-US')} (the job's): journalistHighest is the bound 1 / f of a class of f records (it stands for at least f people); ` +
      'the estimates from the sampling fraction π depend on the input\'s size and are in the internal report (they are no bound: a record unique in the data may be unique in the population)',
    release,
  };
}

/** The review as published: the custodian's reasons for accepting a failed check stay internal (the checks say which were accepted). */
function publicReview(review: NonNullable<Report['review']>): NonNullable<Report['review']> {
  const { acknowledgements: _acknowledgements, ...rest } = review;
  return rest;
}

/** The guarantee as published: β-privacy's worst count and bucket size per value stay internal, whether it holds is public. */
function publicGuarantee(g: Report['guarantee']): Report['guarantee'] {
  if (!g.maxInference) return g;
  const bounds = Object.create(null) as Record<string, { beta: number; betaExact: string; holds: boolean }>;
  for (const [value, b] of Object.entries(g.maxInference)) bounds[value] = { beta: b.beta, betaExact: b.betaExact, holds: b.holds };
  return { ...g, maxInference: bounds } as Report['guarantee'];
}
