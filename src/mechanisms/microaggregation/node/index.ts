import { verifiedBy, type NodeMechanism } from '../../../jobs/method-kit/node-mechanism.js';
import { microaggregationCompare } from './compare.js';
import type { MicroaggregationSpec } from '../definition.js';
import { publishedStatementOf } from '../statement.js';
import { runMicroaggregation } from './run.js';
import { verifyMicroaggregation } from './verify.js';

export const microaggregationNode: NodeMechanism<MicroaggregationSpec> = {
  run: (job, imported, ctx) => runMicroaggregation(job, imported, job.method, ctx),
  verify: verifiedBy(verifyMicroaggregation),
  releasesInputColumns: true,
  compare: microaggregationCompare,
  publishedStatement: publishedStatementOf,
  releasedFrequencies: null,
  emptyReleaseKey: null,
  deterministic: true,
};
