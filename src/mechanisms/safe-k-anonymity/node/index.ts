import { verifiedBy, type NodeMechanism } from '../../../jobs/method-kit/node-mechanism.js';
import { safeKAnonymityCompare } from './compare.js';
import { verifySafeKAnonymity } from './verify.js';
import type { SafeKAnonymitySpec } from '../definition.js';
import { publishedStatementOf } from '../statement.js';
import { runSafeKAnonymity } from './run.js';

export const safeKAnonymityNode: NodeMechanism<SafeKAnonymitySpec> = {
  run: (job, imported, ctx) => runSafeKAnonymity(job, imported, job.method, ctx),
  verify: verifiedBy(verifySafeKAnonymity),
  releasesInputColumns: true,
  compare: safeKAnonymityCompare,
  publishedStatement: publishedStatementOf,
  releasedFrequencies: null,
  emptyReleaseKey: 'method.k',
  deterministic: false,
};
