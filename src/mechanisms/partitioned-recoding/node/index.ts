import { verifiedBy, type NodeMechanism } from '../../../jobs/method-kit/node-mechanism.js';
import { partitionedRecodingCompare } from './compare.js';
import { verifyClasses } from '../../../jobs/method-kit/verify-classes.js';
import type { PartitionedRecodingSpec } from '../definition.js';
import { publishedStatementOf } from '../statement.js';
import { runPartitionedRecoding } from './run.js';

export const partitionedRecodingNode: NodeMechanism<PartitionedRecodingSpec> = {
  run: (job, imported, ctx) => runPartitionedRecoding(job, imported, job.method, ctx),
  verify: verifiedBy(verifyClasses),
  releasesInputColumns: true,
  compare: partitionedRecodingCompare,
  publishedStatement: publishedStatementOf,
  releasedFrequencies: null,
};
