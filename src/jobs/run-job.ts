import type { WorkerScript } from '../io/worker-script.js';
import { writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { RandomSource } from '../common/random/source.js';
import type { ImportedTable, ImportOptions } from '../io/input/import-types.js';
import { readTable } from '../io/input/read-table.js';
import { compactReleaseTable, type ReleaseTable } from '../io/output/release-table.js';
import { HashedFileWriter } from '../io/output/hashed-file.js';
import { manifestJson, MANIFEST, newReleaseId } from '../io/output/manifest.js';
import { checkApart, checkNotAroundInputs, checkOutputDir, commitStaged, OutputDirError, StagingDir } from '../io/output/staging-dir.js';
import { MAX_SHEET_DATA_ROWS, writeXlsx, type ExtraSheet } from '../io/output/xlsx-writer.js';
import { forgetGatheredCodes } from '../io/output/released-codes.js';
import { writersFor } from './release-writers.js';
import { sharedFacts, type Fact } from '../common/report/report-facts.js';
import { blockRows } from '../common/report/view-model.js';
import { keyFiguresOf } from '../mechanisms/report-views.js';
import { reportHtml, reportPdf } from './report-renderings.js';
import { loadPdfKit, type ExtraPdfSection } from '../io/report/report-pdf.js';
import { CONFIDENTIAL_MARK, type OutputFile, type Report, type RiskProfileReport } from '../common/report/report-model.js';
import { JobError } from '../common/job/job-error.js';
import { prepareInput } from './prepare-input.js';
import { jsonReplacer } from './json.js';
import type { Job } from '../mechanisms/definitions.js';
import type { LoadedJob } from './load-job.js';
import type { MethodContext } from './method-kit/method-context.js';
import type { NodeMechanism } from './method-kit/node-mechanism.js';
import { nodeMechanismOf } from '../mechanisms/node-registry.js';
import { parseReport } from '../mechanisms/report-schema.js';
import type { MethodOutcome } from './method-kit/outcome.js';
import type { AnalysisReport } from '../common/utility/analysis-model.js';
import { stamped } from './method-kit/release-view.js';
import { checkedRelease } from './release-checks.js';
import { assessChain, runChain } from './chain/run-chain.js';
import type { ChainSteps } from '../mechanisms/chain.js';
import { publicJob } from './public-job.js';
import { CancelledError, STAGES, type ProgressListener, type Stage } from './progress.js';
import { buildReport, externalVariant, type PublicParts } from './report-builder.js';
import { InputError } from '../io/input/input-error.js';
import type { Comparison } from '../common/compare/comparison.js';
import { comparisonPdfSection, comparisonSectionHtml, comparisonSheetRows, comparisonWarning, writeComparisonSection } from './compare/comparison-files.js';
import { verdictWords } from '../common/report/guarantee-verdict.js';
import { reviewWords } from '../common/report/review-words.js';
import { projectedReview, quasiClasses, reviewRelease, type GroupedTable } from './review/review-release.js';
import { ReviewFailedError } from './review/review-error.js';
import { inputRiskProfile, knownClasses, releaseProfileInput, releaseRiskProfile, weightColumnOf } from './review/risk-profile.js';
import { RISK_PROFILE_HELPER, startRiskProfile, type PendingProfile } from './review/risk-profile-helper.js';
import { startWorkbookSheets, WORKBOOK_SHEETS_HELPER, type PendingSheets } from './workbook-sheets-helper.js';
import { checkUtilitySettings, releaseAnalysis } from './utility/analysis-utility.js';
import { formatCount } from '../common/format/numbers.js';
import { prestartWorker, stopWarmWorkers } from '../io/worker-script.js';
import { roleOf } from './method-kit/plan.js';

export interface RunOptions {
  readonly random: RandomSource;
  readonly onProgress?: ProgressListener;
  readonly signal?: AbortSignal;
  /** Overrides output.dir; resolved against the working directory. */
  readonly outDir?: string;
  /** Overrides output.internalDir; resolved against the working directory. */
  readonly internalDir?: string;
  /** Told each staging folder's path before it is made, so a host that kills the run can remove it. */
  readonly onStaging?: (path: string) => void;
  readonly now?: () => Date;
  /** The job worker's script, for helper threads (absent when the job runs in-process). */
  readonly helperScript?: WorkerScript;
  /** How the input is read: the app's long-lived worker passes its cache of tables already read. */
  readonly readTable?: (path: string, options: ImportOptions) => ImportedTable;
  /** The comparison the setting was chosen from (the app's Compare step): confidential, so written beside the internal report only. */
  readonly comparison?: Comparison;
  /** False skips the internal report's utility figure (the benchmark measures what it costs a run). */
  readonly measureUtility?: boolean;
}

export interface RunResult {
  /** The internal report (confidential), written into internalDir. */
  readonly report: Report;
  /** The external report, published in the release folder. */
  readonly published?: Report;
  readonly outDir?: string;
  readonly internalDir?: string;
  /** Problems met after the release was in place (an old folder that could not be removed). */
  readonly problems?: readonly string[];
}

function progressOf(options: RunOptions): (stage: Stage, fraction: number) => void {
  return (stage, fraction) => {
    if (options.signal?.aborted) throw new CancelledError();
    options.onProgress?.({ stage, label: STAGES[stage], fraction });
  };
}

function importInput(loaded: LoadedJob, progress: (stage: Stage, f: number) => void, read_: RunOptions['readTable'] = readTable, helperScript?: WorkerScript, keepHelperWarm = false): { imported: ImportedTable; inputPath: string } {
  const { job, baseDir } = loaded;
  const inputPath = resolve(baseDir, job.input.path);
  const read = read_(inputPath, {
    ...(helperScript ? { helperScript } : {}),
    ...(keepHelperWarm ? { keepHelperWarm } : {}),
    ...(job.input.delimiter ? { delimiter: job.input.delimiter } : {}),
    ...(job.input.encoding ? { encoding: job.input.encoding } : {}),
    sheet: job.input.sheet ?? null,
    missing: job.input.missing,
    onBadRow: job.input.onBadRow,
    onProgress: (done, total) => progress('read', total === 0 ? 1 : done / total),
  });
  const imported = prepareInput(job, read);
  // An input without records is an input problem (exit 3), whatever the method.
  if (imported.table.rowCount === 0) {
    const why = imported.rejectedRowCount > 0 ? ` (all ${imported.rejectedRowCount} rows were rejected)` : imported.excludedMissingSensitive ? ' (every record has a missing sensitive value, and input.missingSensitive excludes them)' : '';
    throw new InputError(`the file has a header but no records${why}`, basename(inputPath));
  }
  if (job.input.sha256 && job.input.sha256 !== imported.sha256) {
    throw new JobError(`the input's SHA-256 is ${imported.sha256}, the job expects ${job.input.sha256}: the file changed since the job was written`, 'input.sha256');
  }
  // The columns the job's `utility` key names must be in the input and released (a chain's identifiers are its first step's).
  checkUtilitySettings(job, imported.table, loaded.chain?.steps[0].attributes);
  return { imported, inputPath };
}

function runMethod(job: Job, imported: ImportedTable, ctx: MethodContext): MethodOutcome {
  const mechanism = nodeMechanismOf(job.method.type) as NodeMechanism<Job['method']>;
  return mechanism.run(job, imported, ctx);
}

/** The job's release: its method's, or a chain's two steps (each step's release checked as it is made). */
function runLoaded(loaded: LoadedJob, imported: ImportedTable, ctx: MethodContext): MethodOutcome {
  return loaded.chain ? runChain(loaded.chain.steps, imported, ctx) : checkedRelease(loaded.job, imported.table, runMethod(loaded.job, imported, ctx));
}

/**
 * The job a report embeds: of a chain, the job as written (both steps, the identifiers' roles), not
 * its last step's; `published`: as the release folder's job.json gives it.
 */
function withChainJob(report: Report, loaded: LoadedJob, published: boolean): Report {
  if (!loaded.chain) return report;
  const [identity, attribute] = loaded.chain.steps;
  const job = published ? { ...publicJob(identity), method: [publicJob(identity).method, publicJob(attribute).method] } : { ...loaded.chain.job, input: { ...loaded.chain.job.input, sha256: report.input.sha256 } };
  return { ...report, job };
}

function methodContext(loaded: LoadedJob, options: RunOptions, mode: MethodContext['mode'], progress: (stage: Stage, f: number) => void): MethodContext {
  return {
    random: options.random,
    mode,
    baseDir: loaded.baseDir,
    progress: (s, f) => progress(s as Stage, f),
    ...(options.helperScript ? { helperScript: options.helperScript } : {}),
    ...(options.measureUtility === false ? { measureUtility: false } : {}),
    // A run writes the release folder before the internal report: figures only that report shows are measured meanwhile.
    ...(mode === 'run' ? { settleLater: true } : {}),
  };
}

/**
 * The report as its schema allows it, or an error before anything is written: a field that is not in
 * the schema (an internal fact in the external variant, say) is a defect, never published.
 */
function checked(report: Report): Report {
  const parsed = parseReport(report, report.variant);
  if (!parsed.ok) throw new Error(`the ${report.variant} report does not match the report schema: ${parsed.problems.slice(0, 5).join('; ')}`);
  return report;
}

function publicParts(job: Job, outcome: MethodOutcome): PublicParts {
  return { summary: outcome.externalSummary, warnings: outcome.externalWarnings ?? [], job, ...(outcome.publishedChain ? { chain: outcome.publishedChain } : {}) };
}

/** Risk of the input under the job; writes nothing. */
export function assessJob(loaded: LoadedJob, options: RunOptions): Report {
  const progress = progressOf(options);
  const { imported, inputPath } = importInput(loaded, progress, options.readTable, options.helperScript);
  const ctx = methodContext(loaded, options, 'assess', progress);
  if (loaded.chain) return assessChainJob(loaded, loaded.chain.steps, imported, inputPath, ctx, options);
  const outcome = runMethod(loaded.job, imported, ctx);
  const built = buildReport({
    kind: 'assessment', job: loaded.job, inputPath, imported, outcome,
    testRandomness: options.random.deterministic, createdAt: (options.now ?? (() => new Date()))(),
  });
  // The review the run would make, projected from the input (internal: the external variant leaves it out).
  const quasi = built.input.columns.filter((c) => c.role === 'quasi').map((c) => c.name);
  // Every risk figure of the input's quasi-identifiers (internal: the external variant leaves it out).
  const profile = quasi.length > 0 ? inputRiskProfile(loaded.job, imported.table, quasi, weightColumnOf(imported)) : undefined;
  const report: Report = { ...built, risk: { ...built.risk, ...(profile ? { profile } : {}) }, review: projectedReview(loaded.job, imported.table, built) };
  return checked(loaded.job.output.variant[0] === 'external' ? externalVariant(report, publicParts(loaded.job, outcome)) : report);
}

/**
 * A chain's assessment (src/jobs/chain/run-chain.ts: both steps made in memory): the identity step's
 * figures of its release, the attribute step's on it, and the disclosure review and risk profile of
 * the final release, computed as the run computes them from the tables it would write.
 */
function assessChainJob(loaded: LoadedJob, steps: ChainSteps, imported: ImportedTable, inputPath: string, ctx: MethodContext, options: RunOptions): Report {
  const { job } = loaded;
  const outcome = assessChain(steps, imported, ctx);
  const releases = outcome.releases.map((r) => ({ ...r, table: compactReleaseTable(r.table) }));
  const roles = releasedRoles(outcome);
  // The profile's table is grouped by its quasi-identifiers once, for the review and the profile.
  const grouped = groupedFor(releaseProfileInput(job, releases, quasiOf(roles), weightColumnOf(imported)), roles);
  const review = reviewRelease(job, releases, roles, steps[0], grouped);
  const profile = releaseRiskProfile(job, releases, quasiOf(roles), weightColumnOf(imported), grouped);
  const built = buildReport({ kind: 'assessment', job, inputPath, imported, outcome, testRandomness: options.random.deterministic, createdAt: (options.now ?? (() => new Date()))() });
  const report = withChainJob({ ...built, risk: { ...built.risk, ...(profile ? { profile } : {}) }, review }, loaded, false);
  return checked(job.output.variant[0] === 'external' ? withChainJob(externalVariant(report, publicParts(job, outcome)), loaded, true) : report);
}

/** The role of each column the release may carry (identifiers are never released). */
function releasedRoles(outcome: MethodOutcome): Map<string, 'quasi' | 'sensitive' | 'insensitive'> {
  return new Map(outcome.plan.columns.flatMap((c) => (c.role === 'identifier' ? [] : [[c.column.name, c.role] as const])));
}

const quasiOf = (roles: ReadonlyMap<string, string>): Set<string> => new Set([...roles].flatMap(([name, role]) => (role === 'quasi' ? [name] : [])));

/** The table the risk profile reads, its rows grouped by their quasi-identifiers once: the review counts the same classes. */
const groupedFor = (profileInput: { readonly table: ReleaseTable } | undefined, roles: ReadonlyMap<string, string>): GroupedTable | undefined =>
  profileInput ? { table: profileInput.table, classes: quasiClasses(profileInput.table, roles) } : undefined;

/** The internal report's folder: the job's, or a sibling of the release named after it. */
export function internalDirOf(job: Job, baseDir: string, outDir: string, override?: string): string {
  if (override) return resolve(override);
  if (job.output.internalDir) return resolve(baseDir, job.output.internalDir);
  return join(dirname(outDir), `${basename(outDir)}-internal`);
}

/** Every file the job reads: a folder holding one must never be replaced by an output. */
function inputFiles(loaded: LoadedJob): string[] {
  const { job, baseDir } = loaded;
  const methods = loaded.chain ? loaded.chain.steps.map((s) => s.method) : [job.method];
  const hierarchies = methods.flatMap((method) => ('hierarchies' in method ? Object.values(method.hierarchies).filter((h): h is string => typeof h === 'string') : []));
  const domainFiles = methods.flatMap((method) => ('domains' in method && method.domains ? Object.values(method.domains).flatMap((d) => (typeof d === 'object' && !Array.isArray(d) ? [d.hierarchy] : [])) : []));
  return [job.input.path, ...hierarchies, ...domainFiles].map((p) => resolve(baseDir, p));
}

/** Excel's column limit: a release wider than this cannot be a workbook. */
const MAX_XLSX_COLUMNS = 16_384;

/**
 * Refuses an XLSX release that cannot fit Excel before the method runs: every
 * column not dropped as an identifier may be released, plus the bucket and
 * test-stamp columns. Rows need no check: long tables continue on further sheets.
 */
function checkWorkbookLimits(job: Job, imported: ImportedTable): void {
  // dp-counts releases its answers (a column per queried attribute), never the input's columns.
  if (!job.output.formats.includes('xlsx') || !nodeMechanismOf(job.method.type).releasesInputColumns) return;
  const identifiers = Object.values(job.attributes).filter((role) => role === 'identifier').length;
  const released = imported.table.columns.length - identifiers + 2;
  if (released > MAX_XLSX_COLUMNS) {
    throw new JobError(`the release would have up to ${formatCount(released)} columns; an Excel sheet holds at most ${formatCount(MAX_XLSX_COLUMNS)}. Write CSV only, or drop columns`, 'output.formats');
  }
}

/** Checks both output folders before any work, so a refusal costs nothing and names the key to change. */
function checkOutputFolders(loaded: LoadedJob, outDir: string, internalDir: string, options: RunOptions): void {
  const inputs = inputFiles(loaded);
  const guard = (body: () => void, key: string): void => {
    try {
      body();
    } catch (error) {
      if (error instanceof OutputDirError) throw new JobError(error.message, key);
      throw error;
    }
  };
  const releaseKey = options.outDir ? '--out' : 'output.dir';
  const internalKey = options.internalDir ? '--internal' : 'output.internalDir';
  guard(() => checkOutputDir(outDir, 'release'), releaseKey);
  guard(() => checkNotAroundInputs(outDir, 'release', inputs), releaseKey);
  guard(() => checkOutputDir(internalDir, 'internal', outDir), internalKey);
  guard(() => checkNotAroundInputs(internalDir, 'internal', inputs), internalKey);
  guard(() => checkApart(outDir, internalDir), internalKey);
}

/**
 * Runs the job and writes two folders atomically: the release folder, which
 * holds only what may be published (released data, the external report, a
 * job description without checksums or folders, the manifest), and the
 * internal folder with the confidential report. The release folder is
 * renamed into place last: nothing can fail after it.
 */
export async function runJob(loaded: LoadedJob, options: RunOptions): Promise<RunResult> {
  const { job, baseDir } = loaded;
  const outDir = options.outDir ? resolve(options.outDir) : resolve(baseDir, job.output.dir);
  const internalDir = internalDirOf(job, baseDir, outDir, options.internalDir);
  checkOutputFolders(loaded, outDir, internalDir, options);
  const progress = progressOf(options);
  const testStamp = options.random.deterministic;
  // The thread that read the file's second part waits for the run's first helper (stopped below if
  // none takes it), where one will follow: the workbook's sheets, or the risk profile of released records.
  const helperFollows = job.output.formats.includes('xlsx') || releasesRecords(loaded);
  let read: ReturnType<typeof importInput>;
  try {
    read = importInput(loaded, progress, options.readTable, options.helperScript, helperFollows);
    checkWorkbookLimits(job, read.imported);
  } catch (error) {
    stopWarmWorkers();
    throw error;
  }
  const { imported, inputPath } = read;
  // The risk profile's and the workbook sheets' threads load their script now, while reading has left the other core idle
  // (the first of them is the thread that read the file's second part, when there was one).
  if (options.helperScript && profileWanted(loaded, imported)) prestartWorker(options.helperScript, RISK_PROFILE_HELPER);
  if (options.helperScript && job.output.formats.includes('xlsx')) prestartWorker(options.helperScript, WORKBOOK_SHEETS_HELPER);
  const stagings: StagingDir[] = [];
  let pendingProfile: PendingProfile | undefined;
  let pendingSheets: PendingSheets | undefined;
  let outcome: MethodOutcome | undefined;
  try {
    const ctx = methodContext(loaded, options, 'run', progress);
    outcome = runLoaded(loaded, imported, ctx);
    // Every released table of a test-randomness run carries the stamp, whatever the method; every
    // table is cut to the values its rows hold before any writer sees it.
    const releases = outcome.releases.map((r) => ({ ...r, table: compactReleaseTable(testStamp ? stamped(r.table) : r.table) }));
    // The workbook's table sheets, made and deflated in memory on a helper thread while this one
    // reviews the release and writes the other files (nothing is written before the review passes).
    if (job.output.formats.includes('xlsx')) pendingSheets = startWorkbookSheets(options.helperScript, releases, MAX_SHEET_DATA_ROWS);
    // The disclosure review of the tables as they will be written; a failure the job does not acknowledge stops here, before any folder is made.
    // A seeded test run is stamped NOT A PROTECTED RELEASE and never publishable (verify fails it): its review is reported, and does not stop it.
    const roles = releasedRoles(outcome);
    // Every risk figure of the released quasi-identifiers, for the internal report only: on a helper
    // thread while the review runs and the release folder is written (settled below, where the
    // internal report needs it; stopped if the review fails).
    const profileInput = releaseProfileInput(job, releases, quasiOf(roles), weightColumnOf(imported));
    // Its table's rows grouped by their quasi-identifiers once: the profile starts from the review's classes.
    const grouped = groupedFor(profileInput, roles);
    pendingProfile = profileInput && grouped ? startRiskProfile(options.helperScript, profileInput.columns, profileInput.records, profileInput.options, knownClasses(grouped.classes)) : undefined;
    const review = reviewRelease(job, releases, roles, loaded.chain?.steps[0], grouped);
    if (review.verdict === 'failed' && !testStamp) throw new ReviewFailedError(review.checks);
    progress('write', 0);
    const internal = new StagingDir(internalDir, 'internal', options.onStaging, outDir);
    stagings.push(internal);
    const release = new StagingDir(outDir, 'release', options.onStaging);
    stagings.push(release);
    const stale = [...internal.removedStale, ...release.removedStale];
    const created = (options.now ?? (() => new Date()))();
    const draftOf = (of: MethodOutcome): Report => withChainJob({
      ...buildReport({
        kind: 'release', job, inputPath, imported, outcome: of, testRandomness: testStamp, createdAt: created,
        // Released records: the rows of the first table (the release itself, or the QIT of a bucketization).
        output: { dir: outDir, rows: releases[0]?.table.rowCount ?? 0, files: [] },
      }),
      review,
    }, loaded, false);
    // Without the figures still being measured: they are internal, so the release folder never waits for them.
    const draft = draftOf(outcome);
    const parts = publicParts(job, outcome);
    const files: OutputFile[] = [];
    const variables = new Map((imported.variables ?? []).map((v) => [v.name, v]));
    const publishedOf = (report: Report): Report => withChainJob(externalVariant(report, parts), loaded, true);
    const publishedDraft = (): Report => asPublished(publishedOf(draft));
    // The figures only the internal report shows: measured after the release folder is written, so
    // it never waits for them, and before the risk profile is waited for, so that helper finishes
    // meanwhile; but while a helper makes the workbook's sheets, just before the workbook, where this
    // thread would otherwise wait for them (after the other files, so the risk profile's thread has
    // had their time to end and free its memory). The analysis: a classifier and contingency tables
    // on the release against the input.
    const measureInternal = (): { settledOutcome: MethodOutcome; analysis: AnalysisReport } => {
      for (const r of releases) forgetGatheredCodes(r.table.columns, r.table.rowCount);
      // The analysis first: it reads the released records, which the figures still being measured
      // leave as they are (PendingFigures), so the utility helper has its time to end before settle waits for it.
      const analysis = releaseAnalysis(job, imported.table, outcome!, loaded.chain !== undefined);
      const settledOutcome = outcome!.pending ? outcome!.pending.settle() : outcome!;
      return { settledOutcome, analysis };
    };
    let internalFigures: ReturnType<typeof measureInternal> | undefined;
    for (const { format, writer } of writersFor(job.output.formats)) {
      if (format === 'xlsx' && pendingSheets) {
        internalFigures = measureInternal();
        // The workbook's writer waits for the helper's sheets next: the PDF reports' library loads meanwhile.
        if (job.output.report.includes('pdf')) loadPdfKit();
      }
      files.push(
        ...(await writer.write({
          job, release, releases, created, written: files,
          variableOf: (column) => variables.get(column),
          reportSheets: (written) => workbookReportSheets(publishedDraft(), written),
          progress: (f) => progress('write', f),
          ...(pendingSheets ? { workbookSheets: pendingSheets.parts } : {}),
        })),
      );
    }
    const external = publishedOf(draft);
    files.push({ name: 'job.json', ...writeText(release.file('job.json'), JSON.stringify(external.job, null, 2) + '\n') });
    const renderings = writeRenderings(release, 'report', asPublished({ ...external, output: { ...external.output!, files: [...files] } }), job.output.report);
    const published = checked({ ...external, output: { ...external.output!, files: [...files, ...renderings] } });
    const reportJson = writeText(release.file('report.json'), JSON.stringify(published, jsonReplacer, 2) + '\n');
    const releaseFiles = [...files, ...renderings, { name: 'report.json', ...reportJson }];
    // Both manifests name the release by one random identifier: the internal folder serves this release only.
    const releaseId = newReleaseId();
    writeFileSync(release.file(MANIFEST), manifestJson('release', releaseFiles, releaseId), { flag: 'wx' });

    // The internal report lists the release's files too, so the custodian holds every checksum.
    internalFigures ??= measureInternal();
    const { settledOutcome, analysis } = internalFigures;
    const settled = outcome.pending ? draftOf(settledOutcome) : draft;
    const profile: RiskProfileReport | undefined = pendingProfile ? { basis: 'release', ...pendingProfile.settle() } : undefined;
    const confidential = checked({
      ...settled,
      risk: { ...settled.risk, ...(profile ? { profile } : {}) },
      utility: { ...settled.utility, analysis },
      output: { ...settled.output!, files: releaseFiles },
      warnings: [...settled.warnings, ...stale.map((name) => `Removed ${name}, a staging folder left by an interrupted run (it held partial output).`), ...(options.comparison ? [comparisonWarning(options.comparison)] : [])],
    });
    const internalFiles: OutputFile[] = [];
    internalFiles.push({ name: 'job.json', ...writeText(internal.file('job.json'), JSON.stringify(confidential.job, null, 2) + '\n') });
    const comparison = options.comparison;
    internalFiles.push(...writeRenderings(internal, 'internal-report', confidential, job.output.report, comparison ? { html: comparisonSectionHtml(comparison), pdf: [comparisonPdfSection(comparison)] } : undefined));
    if (job.output.formats.includes('xlsx')) {
      const sheets = [...workbookReportSheets(confidential, releaseFiles), ...(comparison ? [{ name: 'Comparison', rows: comparisonSheetRows(comparison) }] : [])];
      const { sheets: _sheets, ...written } = await writeXlsx(internal.file('internal-report.xlsx'), [], sheets);
      internalFiles.push({ name: 'internal-report.xlsx', ...written });
    }
    if (options.comparison) internalFiles.push(...writeComparisonSection(internal, options.comparison));
    internalFiles.push({ name: 'internal-report.json', ...writeText(internal.file('internal-report.json'), JSON.stringify(confidential, jsonReplacer, 2) + '\n') });
    writeFileSync(internal.file(MANIFEST), manifestJson('internal', internalFiles, releaseId), { flag: 'wx' });
    // The host posts the report to another thread after the run: a report that cannot be
    // cloned must fail here, before any folder is in place, not after.
    structuredClone(confidential);
    if (options.signal?.aborted) throw new CancelledError();
    const problems = commitStaged(stagings);
    return { report: confidential, published, outDir, internalDir, ...(problems.length ? { problems } : {}) };
  } catch (error) {
    pendingProfile?.close();
    for (const staging of stagings) staging.discard();
    // A folder that changed while the job ran (another program wrote into it), met when its staging
    // folder is made or when it is committed: refused as before the run, by its key.
    if (error instanceof OutputDirError) throw new JobError(`${error.message} (it changed while the job ran)`, error.kind === 'internal' ? (options.internalDir ? '--internal' : 'output.internalDir') : options.outDir ? '--out' : 'output.dir');
    throw error;
  } finally {
    pendingSheets?.close();
    outcome?.pending?.abandon();
    stopWarmWorkers();
  }
}

/** Whether a run of this job computes a risk profile of its release (releaseProfileInput): records released, and some quasi-identifier. */
function profileWanted(loaded: LoadedJob, imported: ImportedTable): boolean {
  const job = loaded.chain?.steps[0] ?? loaded.job;
  return releasesRecords(loaded) && imported.table.columns.some((c) => roleOf(job, c.name) === 'quasi');
}

/** Whether the run's release holds records (a chain's, as its first step releases them): known before the input is read. */
function releasesRecords(loaded: LoadedJob): boolean {
  return nodeMechanismOf((loaded.chain?.steps[0] ?? loaded.job).method.type).releasesInputColumns;
}

/** Sections a run adds after the report's own, in each rendering (the comparison its setting was chosen from). */
interface ExtraSections {
  readonly html: string;
  readonly pdf: readonly ExtraPdfSection[];
}

/** report.html and report.pdf of one variant (the PDF drawn offline by PDFKit), each with the run's extra sections. */
function writeRenderings(staging: StagingDir, stem: string, report: Report, formats: readonly string[], extra: ExtraSections = { html: '', pdf: [] }): OutputFile[] {
  const out: OutputFile[] = [];
  if (formats.includes('html')) out.push({ name: `${stem}.html`, ...writeText(staging.file(`${stem}.html`), reportHtml(report, extra.html)) });
  if (formats.includes('pdf')) {
    const writer = new HashedFileWriter(staging.file(`${stem}.pdf`));
    writer.write(reportPdf(report, extra.pdf));
    out.push({ name: `${stem}.pdf`, ...writer.close() });
  }
  return out;
}

function writeText(path: string, text: string): { sha256: string; bytes: number } {
  const out = new HashedFileWriter(path);
  out.write(text);
  return out.close();
}

/**
 * The report as report.json gives it back (NaN and infinities as null, no undefined fields): the
 * published workbook's report sheets and the published HTML and PDF are drawn from this form, so
 * verify, which has only report.json, draws the same bytes.
 */
export function asPublished(report: Report): Report {
  return JSON.parse(JSON.stringify(report, jsonReplacer)) as Report;
}

/**
 * The workbook's Report, Parameters and Checksums sheets, drawn from the report
 * model; an internal report's sheets each start with the confidential mark.
 */
/** The workbook's rows of the disclosure review: a blank line, the verdict, the attacker, the acknowledgement, every check. */
function reviewRows(report: Report): string[][] {
  if (!report.review) return [];
  const words = reviewWords(report.review);
  return [[], [words.title, words.verdict], [words.attacker], ...(words.acknowledgement ? [[words.acknowledgement]] : []), ...words.checks.map(([k, v]) => [k, v])];
}

export function workbookReportSheets(report: Report, written: readonly OutputFile[]): ExtraSheet[] {
  const facts = sharedFacts(report);
  const rows = (list: readonly Fact[]): string[][] => list.map(([k, v]) => [k, v]);
  const mark = report.variant === 'internal' ? [[CONFIDENTIAL_MARK]] : [];
  const sheets: ExtraSheet[] = [
    {
      name: 'Report',
      rows: [
        [`${report.kind === 'release' ? 'Privacy report' : 'Risk assessment'}: ${report.method.title}`],
        ...(report.notice ? [[report.notice]] : []),
        [],
        ['In plain words'],
        ...report.summary.map((line) => [line]),
        // The disclosure review as the HTML and PDF show it (src/common/report/review-words.ts).
        ...reviewRows(report),
        // The warnings travel with the data as the HTML and PDF carry them (the cells a DP release took from the input, say).
        ...(report.warnings.length > 0 ? [[], ['Warnings'], ...report.warnings.map((line) => [line])] : []),
        [],
        ['Guarantee', `${report.guarantee.name}: ${verdictWords(report.guarantee, true)}`],
        ['Statement', report.guarantee.statement],
        ['Formula', report.guarantee.formula],
        ['Source', report.guarantee.source],
        [],
        // The key figures of the mechanisms' views (src/mechanisms/report-views.ts), as the PDF and the results show them.
        ...keyFiguresOf(report).flatMap(blockRows),
        ...(facts.reidentification.length ? [[], ['Re-identification risk'], ...rows(facts.reidentification)] : []),
        [],
        ...rows(facts.provenance),
      ],
    },
    { name: 'Parameters', rows: [['Parameter', 'Value'], ...rows(facts.parameters), [], ['Job (JSON)', JSON.stringify(report.job)]] },
    {
      name: 'Checksums',
      rows: [
        ['File', 'SHA-256', 'Bytes'],
        ...(report.input.sha256 !== undefined ? [[`input: ${report.input.path ?? ''}`, report.input.sha256, report.input.bytes ?? '']] : []),
        ...written.map((f) => [f.name, f.sha256, f.bytes]),
        [],
        [`This workbook cannot list its own checksum: see ${MANIFEST}.`],
      ],
    },
  ];
  return sheets.map((sheet) => ({ ...sheet, rows: [...mark, ...sheet.rows] }));
}
