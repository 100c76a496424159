import { verifiedBy, type NodeMechanism } from '../../../jobs/method-kit/node-mechanism.js';
import { partitionedRecodingCompare } from './compare.js';
import { verifyPartitionedRecoding } from './verify.js';
import type { PartitionedRecodingSpec } from '../definition.js';
import { publishedStatementOf } from '../statement.js';
import { runPartitionedRecoding } from './run.js';

export const partitionedRecodingNode: NodeMechanism<PartitionedRecodingSpec> = {
  run: (job, imported, ctx) => runPartitionedRecoding(job, imported, job.method, ctx),
  verify: verifiedBy(verifyPartitionedRecoding),
  releasesInputColumns: true,
  compare: partitionedRecodingCompare,
  publishedStatement: publishedStatementOf,
  releasedFrequencies: null,
  emptyReleaseKey: 'method.model',
  deterministic: true,
};
