import { RANDOMIZED_ESTIMATOR, RETENTION_AXIS } from '../../common/compare/axes.js';
import type { RecordComparison } from '../../common/mechanism.js';

/** Compared at several retentions; its label is ρ1–ρ2 privacy. */
export const comparison: RecordComparison = {
  releasesRecords: true,
  axis: RETENTION_AXIS,
  estimator: RANDOMIZED_ESTIMATOR,
  guaranteeLabel: ({ guarantee: g, method }) => (g.rho ? `ρ1–ρ2 privacy (ρ1 = ${g.rho.rho1}, ρ2 = ${g.rho.rho2})` : `ρ1–ρ2 privacy at retention ${String(method.parameters['retention'])}`),
};
