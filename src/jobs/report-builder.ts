import { platform, release as osRelease } from 'node:os';
import type { ImportedTable } from '../io/input/import-types.js';
import { REPORT_SCHEMA, type OutputFile, type Report, type ReportVariant } from '../io/report/report-model.js';
import type { Job } from './job-schema.js';
import type { MethodOutcome } from './methods/outcome.js';
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
  return {
    schema: REPORT_SCHEMA,
    kind: ctx.kind,
    variant: job.output.variant,
    createdAt: ctx.createdAt.toISOString(),
    software: { name: 'custos', version: SOFTWARE_VERSION, node: process.version, platform: `${platform()} ${osRelease()}` },
    testRandomness: ctx.testRandomness,
    ...(ctx.testRandomness ? { notice: TEST_NOTICE } : {}),
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
    ...(ctx.output ? { output: ctx.output } : {}),
    warnings: [
      ...outcome.warnings,
      ...(imported.rejectedRowCount > 0 ? [`${imported.rejectedRowCount} malformed row(s) of the input were rejected and not released.`] : []),
    ],
  };
}

/** The external variant leaves out every statistic of the confidential data a release does not reveal. */
export function externalVariant(report: Report): Report {
  return {
    ...report,
    variant: 'external' satisfies ReportVariant,
    input: { ...report.input, rejectedRowLines: [] },
    risk: {
      ...report.risk,
      ...(report.risk.bySensitive ? { bySensitive: report.risk.bySensitive.map(({ riskiestGroups: _omitted, ...rest }) => rest) } : {}),
    },
  };
}

export function withOutputFiles(report: Report, files: readonly OutputFile[]): Report {
  return report.output ? { ...report, output: { ...report.output, files } } : report;
}
