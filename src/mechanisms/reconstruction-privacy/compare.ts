import { RANDOMIZED_ESTIMATOR, RETENTION_AXIS } from '../../common/compare/axes.js';
import type { RecordComparison } from '../../common/mechanism.js';

/** Compared at several retentions; its label is the (ε, δ) of the reconstruction test. */
export const comparison: RecordComparison = {
  releasesRecords: true,
  axis: RETENTION_AXIS,
  estimator: RANDOMIZED_ESTIMATOR,
  guaranteeLabel: ({ guarantee: g }) => `(ε = ${g.epsilon}, δ = ${g.delta})-reconstruction privacy`,
};
