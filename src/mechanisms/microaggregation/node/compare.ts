import { identityRisk, recordsAsReleased, type NodeComparison } from '../../../jobs/method-kit/compare-kit.js';

/** Its attack: re-identification by matching quasi-identifiers to the released classes; the release read as released. */
export const microaggregationCompare: NodeComparison = {
  risk: identityRisk,
  releasedRecords: recordsAsReleased,
};
