import { largestSensitiveShare, randomizedRecords, reconstructionTestWords, type NodeComparison } from '../../../jobs/method-kit/compare-kit.js';

/** Its attack: the reconstruction attack on the micro groups that still fail the test after Sampling, Perturbing, Scaling. */
export const reconstructionPrivacyCompare: NodeComparison = {
  risk: (outcome, inputRows) => ({
    share: largestSensitiveShare(outcome, inputRows, (s) => s.violatingRowsAfter),
    measure: `records in micro groups that still fail ${reconstructionTestWords(outcome)} after Sampling, Perturbing, Scaling (0 with strict, the default); the largest share over the sensitive columns`,
  }),
  releasedRecords: randomizedRecords,
};
