import { verifiedBy, type NodeMechanism } from '../../../jobs/method-kit/node-mechanism.js';
import { partitionedRecodingCompare } from './compare.js';
import { anonymitySections } from '../../../jobs/method-kit/report-html-anonymity.js';
import { verifyClasses } from '../../../jobs/method-kit/verify-classes.js';
import type { PartitionedRecodingSpec } from '../definition.js';
import { publishedStatementOf } from '../statement.js';
import { runPartitionedRecoding } from './run.js';

export const partitionedRecodingNode: NodeMechanism<PartitionedRecodingSpec> = {
  run: (job, imported, ctx) => runPartitionedRecoding(job, imported, job.method, ctx),
  verify: verifiedBy(verifyClasses),
  reportSections: (report) => (report.anonymity ? anonymitySections(report, report.anonymity) : ''),
  releasesInputColumns: true,
  compare: partitionedRecodingCompare,
  publishedStatement: publishedStatementOf,
  releasedFrequencies: null,
  emptyReleaseKey: 'method.model',
  deterministic: true,
};
