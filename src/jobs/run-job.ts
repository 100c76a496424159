import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { RandomSource } from '../engine/random/source.js';
import type { ImportedTable } from '../io/input/import-types.js';
import { readTable } from '../io/input/read-table.js';
import { writeCsv } from '../io/output/csv-writer.js';
import { HashedFileWriter } from '../io/output/hashed-file.js';
import { checkOutputDir, OutputDirError, StagingDir } from '../io/output/staging-dir.js';
import { writeXlsx, type ExtraSheet } from '../io/output/xlsx-writer.js';
import { reportFacts, type Fact } from '../io/report/report-facts.js';
import { renderReportHtml } from '../io/report/report-html.js';
import { renderReportPdf } from '../io/report/report-pdf.js';
import type { OutputFile, Report } from '../io/report/report-model.js';
import { JobError } from './job-error.js';
import { jsonReplacer } from './json.js';
import type { Job } from './job-schema.js';
import type { LoadedJob } from './load-job.js';
import { runBetaPrivacy } from './methods/beta-privacy.js';
import { runDpCounts } from './methods/dp-counts.js';
import { runPartitionedRecoding } from './methods/partitioned-recoding.js';
import { runSafeKAnonymity } from './methods/safe-k-anonymity.js';
import type { MethodContext } from './methods/method-context.js';
import type { MethodOutcome } from './methods/outcome.js';
import { stamped } from './methods/release-view.js';
import { runReconstructionPrivacy } from './methods/reconstruction-privacy.js';
import { runUniformPerturbation } from './methods/uniform-perturbation.js';
import { CancelledError, STAGES, type ProgressListener, type Stage } from './progress.js';
import { buildReport, externalVariant } from './report-builder.js';

export interface RunOptions {
  readonly random: RandomSource;
  readonly onProgress?: ProgressListener;
  readonly signal?: AbortSignal;
  /** Overrides output.dir; resolved against the working directory. */
  readonly outDir?: string;
  /** Told the staging folder's path, so a host that kills the run can remove it. */
  readonly onStaging?: (path: string) => void;
  readonly now?: () => Date;
}

export interface RunResult {
  readonly report: Report;
  readonly outDir?: string;
}

function progressOf(options: RunOptions): (stage: Stage, fraction: number) => void {
  return (stage, fraction) => {
    if (options.signal?.aborted) throw new CancelledError();
    options.onProgress?.({ stage, label: STAGES[stage], fraction });
  };
}

function importInput(loaded: LoadedJob, progress: (stage: Stage, f: number) => void): { imported: ImportedTable; inputPath: string } {
  const { job, baseDir } = loaded;
  const inputPath = resolve(baseDir, job.input.path);
  const imported = readTable(inputPath, {
    ...(job.input.delimiter ? { delimiter: job.input.delimiter } : {}),
    ...(job.input.encoding ? { encoding: job.input.encoding } : {}),
    sheet: job.input.sheet ?? null,
    missing: job.input.missing,
    onBadRow: job.input.onBadRow,
    onProgress: (read, total) => progress('read', total === 0 ? 1 : read / total),
  });
  if (job.input.sha256 && job.input.sha256 !== imported.sha256) {
    throw new JobError(`the input's SHA-256 is ${imported.sha256}, the job expects ${job.input.sha256}: the file changed since the job was written`, 'input.sha256');
  }
  return { imported, inputPath };
}

function runMethod(job: Job, imported: ImportedTable, ctx: MethodContext): MethodOutcome {
  const method = job.method;
  switch (method.type) {
    case 'uniform-perturbation':
      return runUniformPerturbation(job, imported, method, ctx);
    case 'reconstruction-privacy':
      return runReconstructionPrivacy(job, imported, method, ctx);
    case 'beta-privacy':
      return runBetaPrivacy(job, imported, method, ctx);
    case 'safe-k-anonymity':
      return runSafeKAnonymity(job, imported, method, ctx);
    case 'partitioned-recoding':
      return runPartitionedRecoding(job, imported, method, ctx);
    case 'dp-counts':
      return runDpCounts(job, imported, method, ctx);
  }
}

function methodContext(loaded: LoadedJob, options: RunOptions, mode: MethodContext['mode'], progress: (stage: Stage, f: number) => void): MethodContext {
  return { random: options.random, mode, baseDir: loaded.baseDir, progress: (s, f) => progress(s as Stage, f) };
}

/** Risk of the input under the job; writes nothing. */
export function assessJob(loaded: LoadedJob, options: RunOptions): Report {
  const progress = progressOf(options);
  const { imported, inputPath } = importInput(loaded, progress);
  const ctx = methodContext(loaded, options, 'assess', progress);
  const outcome = runMethod(loaded.job, imported, ctx);
  const report = buildReport({
    kind: 'assessment', job: loaded.job, inputPath, imported, outcome,
    testRandomness: options.random.deterministic, createdAt: (options.now ?? (() => new Date()))(),
  });
  return loaded.job.output.variant[0] === 'external' ? externalVariant(report, outcome.externalSummary) : report;
}

/** Runs the job and writes the release, atomically, into the output folder. */
export async function runJob(loaded: LoadedJob, options: RunOptions): Promise<RunResult> {
  const { job, baseDir } = loaded;
  const outDir = options.outDir ? resolve(options.outDir) : resolve(baseDir, job.output.dir);
  try {
    checkOutputDir(outDir);
  } catch (error) {
    if (error instanceof OutputDirError) throw new JobError(error.message, options.outDir ? '--out' : 'output.dir');
    throw error;
  }
  const progress = progressOf(options);
  const testStamp = options.random.deterministic;
  const { imported, inputPath } = importInput(loaded, progress);
  const ctx = methodContext(loaded, options, 'run', progress);
  const outcome = runMethod(job, imported, ctx);
  // Every released table of a test-randomness run carries the stamp, whatever the method.
  const releases = testStamp ? outcome.releases.map((r) => ({ ...r, table: stamped(r.table) })) : outcome.releases;
  progress('write', 0);
  const staging = new StagingDir(outDir);
  options.onStaging?.(staging.path);
  try {
    const files: OutputFile[] = [];
    const draft = buildReport({
      kind: 'release', job, inputPath, imported, outcome, testRandomness: testStamp,
      createdAt: (options.now ?? (() => new Date()))(),
      // Released records: the rows of the first table (the release itself, or the QIT of a bucketization).
      output: { dir: outDir, rows: releases[0]?.table.rowCount ?? 0, files: [] },
    });
    if (job.output.formats.includes('csv')) {
      releases.forEach((release, i) => {
        const name = `${release.stem}.csv`;
        files.push({ name, rows: release.table.rowCount, ...writeCsv(staging.file(name), release.table, job.output.delimiter) });
        progress('write', (i + 1) / (releases.length + 1));
      });
    }
    if (job.output.formats.includes('xlsx')) {
      const { sheets: _sheets, ...written } = await writeXlsx(
        staging.file('release.xlsx'),
        releases.map((r) => ({ name: r.sheetName, table: r.table })),
        workbookReportSheets(job.output.variant[0] === 'external' ? externalVariant(draft, outcome.externalSummary) : draft, files),
      );
      files.push({ name: 'release.xlsx', rows: releases.reduce((sum, r) => sum + r.table.rowCount, 0), ...written });
    }
    const jobFile = writeText(staging.file('job.json'), JSON.stringify(draft.job, null, 2) + '\n');
    files.push({ name: 'job.json', ...jobFile });
    const complete: Report = { ...draft, output: { ...draft.output!, files: [...files] } };
    const variants = job.output.variant.map((variant) => (variant === 'external' ? externalVariant(complete, outcome.externalSummary) : complete));
    // Secondary variants first, so the primary report lists every other file's checksum.
    const renderings: OutputFile[] = [];
    variants.forEach((variant, index) => {
      if (index === 0) return;
      const stem = `report-${variant.variant}`;
      renderings.push(...writeRenderings(staging, stem, variant, job.output.report));
      const json = writeText(staging.file(`${stem}.json`), JSON.stringify(variant, jsonReplacer, 2) + '\n');
      renderings.push({ name: `${stem}.json`, ...json });
    });
    const primary = variants[0]!;
    renderings.unshift(...writeRenderings(staging, 'report', { ...primary, output: { ...primary.output!, files: [...files, ...renderings] } }, job.output.report));
    const report: Report = { ...primary, output: { ...primary.output!, files: [...files, ...renderings] } };
    // report.json is always written: it marks the folder as a release and carries every checksum.
    writeFileSync(staging.file('report.json'), JSON.stringify(report, jsonReplacer, 2) + '\n', { flag: 'wx' });
    if (options.signal?.aborted) throw new CancelledError();
    staging.commit();
    return { report, outDir };
  } catch (error) {
    staging.discard();
    throw error;
  }
}

/** report.html and report.pdf of one variant; the PDF is drawn offline by PDFKit. */
function writeRenderings(staging: StagingDir, stem: string, report: Report, formats: readonly string[]): OutputFile[] {
  const out: OutputFile[] = [];
  if (formats.includes('html')) out.push({ name: `${stem}.html`, ...writeText(staging.file(`${stem}.html`), renderReportHtml(report)) });
  if (formats.includes('pdf')) {
    const writer = new HashedFileWriter(staging.file(`${stem}.pdf`));
    writer.write(renderReportPdf(report));
    out.push({ name: `${stem}.pdf`, ...writer.close() });
  }
  return out;
}

function writeText(path: string, text: string): { sha256: string; bytes: number } {
  const out = new HashedFileWriter(path);
  out.write(text);
  return out.close();
}

/** The workbook's Report, Parameters and Checksums sheets, drawn from the report model. */
function workbookReportSheets(report: Report, written: readonly OutputFile[]): ExtraSheet[] {
  const facts = reportFacts(report);
  const rows = (list: readonly Fact[]): string[][] => list.map(([k, v]) => [k, v]);
  return [
    {
      name: 'Report',
      rows: [
        [`${report.kind === 'release' ? 'Privacy report' : 'Risk assessment'}: ${report.method.title}`],
        ...(report.notice ? [[report.notice]] : []),
        [],
        ['In plain words'],
        ...report.summary.map((line) => [line]),
        [],
        ['Guarantee', `${report.guarantee.name}: ${report.guarantee.holds ? 'holds' : 'DOES NOT HOLD'}`],
        ['Statement', report.guarantee.statement],
        ['Formula', report.guarantee.formula],
        ['Source', report.guarantee.source],
        [],
        ...rows(facts.keyFigures),
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
        [`input: ${report.input.path}`, report.input.sha256, report.input.bytes],
        ...written.map((f) => [f.name, f.sha256, f.bytes]),
        [],
        ['This workbook cannot list its own checksum: see report.json.'],
      ],
    },
  ];
}
