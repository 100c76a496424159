import type { Report } from '../../common/report/report-model.js';
import type { Job } from '../../mechanisms/definitions.js';
import { nodeMechanismOf } from '../../mechanisms/node-registry.js';
import { SINGLE_RELEASE, type NodeMechanism, type ReleasedTableName } from '../method-kit/node-mechanism.js';
import { writersFor } from '../release-writers.js';

/** The files a run of this job writes into its release folder, in the order it writes them (run-job.ts). */
export interface ReleaseLayout {
  readonly tables: readonly ReleasedTableName[];
  /** Every file but the manifest, in the manifest's order. */
  readonly files: readonly string[];
}

/**
 * The release folder's files as the published job and method make them: for each released table
 * (the method names them) a CSV, Parquet, SPSS and Stata file as `output.formats` asks, the
 * workbook, job.json, the report renderings `output.report` asks for, and report.json. Nothing
 * else belongs in a release folder.
 */
export function releaseLayout(job: Job, report: Report): ReleaseLayout {
  const mechanism = nodeMechanismOf(job.method.type) as NodeMechanism<Job['method']>;
  const tables = mechanism.releasedTables?.(job, report) ?? SINGLE_RELEASE;
  const files: string[] = [];
  // The run's writers, in the run's order, name the data files.
  for (const { writer } of writersFor(job.output.formats)) files.push(...writer.files(tables));
  files.push('job.json');
  if (job.output.report.includes('html')) files.push('report.html');
  if (job.output.report.includes('pdf')) files.push('report.pdf');
  files.push('report.json');
  return { tables, files };
}
