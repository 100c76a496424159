import { verifiedBy, type NodeMechanism } from '../../../jobs/method-kit/node-mechanism.js';
import { uniformPerturbationCompare } from './compare.js';
import { verifyUniformPerturbation } from './verify.js';
import type { UniformPerturbationSpec } from '../definition.js';
import { publishedStatementOf } from '../statement.js';
import { runUniformPerturbation } from './run.js';

export const uniformPerturbationNode: NodeMechanism<UniformPerturbationSpec> = {
  run: (job, imported, ctx) => runUniformPerturbation(job, imported, job.method, ctx),
  verify: verifiedBy(verifyUniformPerturbation),
  releasesInputColumns: true,
  compare: uniformPerturbationCompare,
  publishedStatement: publishedStatementOf,
  releasedFrequencies: null,
  emptyReleaseKey: null,
  deterministic: false,
};
