import { GENERALIZED_ESTIMATOR, kAxis } from '../../common/compare/axes.js';
import { byGuaranteeName, type MethodObject, type RecordComparison } from '../../common/mechanism.js';

/** Compared at several k of its k-anonymity model; the other models (ℓ-diversity, t-closeness…) stay as chosen. */
export const comparison: RecordComparison = {
  releasesRecords: true,
  axis: kAxis('models.k-anonymity.k', '5, 10, 50', (m, v) => {
    const models = Array.isArray(m['models']) ? (m['models'] as MethodObject[]) : [];
    const others = models.filter((x) => x['type'] !== 'k-anonymity');
    return { ...m, models: [...others, { type: 'k-anonymity', k: v }] };
  }),
  estimator: GENERALIZED_ESTIMATOR,
  guaranteeLabel: byGuaranteeName,
};
