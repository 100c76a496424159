import { largestSensitiveShare, randomizedRecords, reconstructionTestWords, type NodeComparison } from '../../../jobs/method-kit/compare-kit.js';

/** Its attack: the reconstruction attack on the micro groups whose sensitive distribution this release gives away. */
export const uniformPerturbationCompare: NodeComparison = {
  risk: (outcome, inputRows) => ({
    share: largestSensitiveShare(outcome, inputRows, (s) => s.violatingRowsBefore),
    measure: `records in micro groups whose sensitive distribution the reconstruction attack recovers from this release: their group fails ${reconstructionTestWords(outcome)} (Wang, Han, Fu, Example 1); the largest share over the sensitive columns`,
  }),
  releasedRecords: randomizedRecords,
};
