import { GENERALIZED_ESTIMATOR, kAxis } from '../../common/compare/axes.js';
import { byGuaranteeName, type MethodObject, type RecordComparison } from '../../common/mechanism.js';

/** Compared at several k of its k-anonymity model (its parts stay as chosen). */
export const comparison: RecordComparison = {
  releasesRecords: true,
  axis: kAxis('model.k', '5, 10, 50', (m, v) => ({ ...m, model: { ...(typeof m['model'] === 'object' && m['model'] !== null ? (m['model'] as MethodObject) : {}), type: 'k-anonymity', k: v } })),
  estimator: GENERALIZED_ESTIMATOR,
  guaranteeLabel: byGuaranteeName,
};
