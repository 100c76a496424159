import { verifiedBy, type NodeMechanism } from '../../../jobs/method-kit/node-mechanism.js';
import { globalRecodingCompare } from './compare.js';
import { anonymitySections } from '../../../jobs/method-kit/report-html-anonymity.js';
import type { GlobalRecodingSpec } from '../definition.js';
import { runGlobalRecoding } from './run.js';
import { verifyGlobalRecoding } from './verify.js';

export const globalRecodingNode: NodeMechanism<GlobalRecodingSpec> = {
  run: (job, imported, ctx) => runGlobalRecoding(job, imported, job.method, ctx),
  verify: verifiedBy(verifyGlobalRecoding),
  reportSections: (report) => (report.anonymity ? anonymitySections(report, report.anonymity) : ''),
  releasesInputColumns: true,
  compare: globalRecodingCompare,
};
