import { verifiedBy, type NodeMechanism } from '../../../jobs/method-kit/node-mechanism.js';
import type { DpCountsSpec } from '../definition.js';
import { publishedStatementOf } from '../statement.js';
import { runDpCounts } from './run.js';
import { verifyDpCounts } from './verify.js';

export const dpCountsNode: NodeMechanism<DpCountsSpec> = {
  run: (job, imported, ctx) => runDpCounts(job, imported, job.method, ctx),
  // The answers are noisy by design: the release states its noise (checked), the original shows it (tested).
  verify: verifiedBy(verifyDpCounts),
  // Its release is the answers, a column per queried attribute.
  releasesInputColumns: false,
  // Its answers are not records: compare skips it (definition's compare says why).
  compare: null,
  releasedTables: () => [{ stem: 'answers', sheetName: 'Answers' }],
  publishedStatement: publishedStatementOf,
  releasedFrequencies: null,
  emptyReleaseKey: null,
  deterministic: false,
};
