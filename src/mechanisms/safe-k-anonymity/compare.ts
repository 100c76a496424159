import { GENERALIZED_ESTIMATOR, kAxis } from '../../common/compare/axes.js';
import type { RecordComparison } from '../../common/mechanism.js';

/** A small ε or δ in three significant digits of an exponent, any other to six digits. */
function small(value: number): string {
  return value !== 0 && Math.abs(value) < 1e-3 ? value.toExponential(2) : String(Number(value.toPrecision(6)));
}

/** Compared at several k; a sampled record counts 1/β times; its label is the (ε, δ) of the DP theorem. */
export const comparison: RecordComparison = {
  releasesRecords: true,
  axis: kAxis('k', '5, 10, 50', (m, v) => ({ ...m, k: v })),
  estimator: `${GENERALIZED_ESTIMATOR}; each sampled record counts 1/β`,
  guaranteeLabel: ({ guarantee: g }) => `(ε = ${small(g.epsilon ?? Number.NaN)}, δ = ${small(g.delta ?? Number.NaN)})-DP`,
};
