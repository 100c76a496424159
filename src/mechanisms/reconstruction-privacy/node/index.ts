import { verifiedBy, type NodeMechanism } from '../../../jobs/method-kit/node-mechanism.js';
import { reconstructionPrivacyCompare } from './compare.js';
import { verifyReconstructionPrivacy } from './verify.js';
import type { ReconstructionPrivacySpec } from '../definition.js';
import { publishedStatementOf } from '../statement.js';
import { releaseSheetName, releaseStems, runReconstructionPrivacy } from './run.js';

export const reconstructionPrivacyNode: NodeMechanism<ReconstructionPrivacySpec> = {
  run: (job, imported, ctx) => runReconstructionPrivacy(job, imported, job.method, ctx),
  verify: verifiedBy(verifyReconstructionPrivacy),
  releasesInputColumns: true,
  compare: reconstructionPrivacyCompare,
  publishedStatement: publishedStatementOf,
  // One table per sensitive column, in the order the report lists them (the input's order).
  releasedTables: (_job, report) => {
    const columns = (report.risk.bySensitive ?? []).map((s) => s.column);
    const stems = releaseStems(columns);
    return columns.map((column, k) => ({ stem: stems[k]!, sheetName: releaseSheetName(column, columns.length) }));
  },
  releasedFrequencies: null,
  emptyReleaseKey: null,
  deterministic: false,
};
