import { GENERALIZED_ESTIMATOR, kAxis } from '../../common/compare/axes.js';
import { byGuaranteeName, type RecordComparison } from '../../common/mechanism.js';

/** Compared at several group sizes; the columns aggregated stay as chosen on the Parameters step. */
export const comparison: RecordComparison = {
  releasesRecords: true,
  axis: kAxis('k', '3, 5, 10', (m, v) => ({ ...m, k: v })),
  estimator: GENERALIZED_ESTIMATOR,
  guaranteeLabel: byGuaranteeName,
};
