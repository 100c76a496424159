import { verifiedBy, type NodeMechanism } from '../../../jobs/method-kit/node-mechanism.js';
import { globalRecodingCompare } from './compare.js';
import type { GlobalRecodingSpec } from '../definition.js';
import { publishedStatementOf } from '../statement.js';
import { runGlobalRecoding } from './run.js';
import { verifyGlobalRecoding } from './verify.js';
import { wildcardFrequencies, WILDCARD } from '../local-suppression.js';

export const globalRecodingNode: NodeMechanism<GlobalRecodingSpec> = {
  run: (job, imported, ctx) => runGlobalRecoding(job, imported, job.method, ctx),
  verify: verifiedBy(verifyGlobalRecoding),
  releasesInputColumns: true,
  compare: globalRecodingCompare,
  publishedStatement: publishedStatementOf,
  // After local suppression "*" is a wildcard: a record matches every record equal or "*" in each column.
  releasedFrequencies: (job, quasi, rowCount) => {
    if (!job.method.localSuppression) return null;
    const codes = quasi.map((c) => {
      const star = c.dictionary.indexOf('*');
      return star < 0 ? c.codes : Uint32Array.from(c.codes, (code) => (code === star ? WILDCARD : code));
    });
    return wildcardFrequencies(codes, rowCount);
  },
  emptyReleaseKey: 'method.models',
  deterministic: true,
};
