import { verifiedBy, type NodeMechanism } from '../../../jobs/method-kit/node-mechanism.js';
import { betaPrivacyCompare } from './compare.js';
import type { BetaPrivacySpec } from '../definition.js';
import { publishedStatementOf } from '../statement.js';
import { runBetaPrivacy } from './run.js';
import { verifyBetaPrivacy } from './verify.js';

export const betaPrivacyNode: NodeMechanism<BetaPrivacySpec> = {
  run: (job, imported, ctx) => runBetaPrivacy(job, imported, job.method, ctx),
  verify: verifiedBy(verifyBetaPrivacy),
  releasesInputColumns: true,
  compare: betaPrivacyCompare,
  // Bucketization releases a quasi-identifier table and a sensitive table (release-buckets.ts).
  releasedTables: () => [
    { stem: 'qit', sheetName: 'QIT' },
    { stem: 'st', sheetName: 'ST' },
  ],
  publishedStatement: publishedStatementOf,
  releasedFrequencies: null,
  emptyReleaseKey: null,
  deterministic: false,
};
