import type { NodeMechanism } from '../../../jobs/method-kit/node-mechanism.js';
import type { DpCountsSpec } from '../definition.js';
import { dpSections } from './report-html.js';
import { runDpCounts } from './run.js';

export const dpCountsNode: NodeMechanism<DpCountsSpec> = {
  run: (job, imported, ctx) => runDpCounts(job, imported, job.method, ctx),
  // The answers are noisy by design: nothing of the guarantee can be recomputed from them.
  verify: () => 'dp-counts: answers are noisy by design; checksums and the job are what can be verified',
  reportSections: (report) => (report.dp ? dpSections(report.dp) : ''),
  // Its release is the answers, a column per queried attribute.
  releasesInputColumns: false,
  releasedTables: () => [{ stem: 'answers', sheetName: 'Answers' }],
};
