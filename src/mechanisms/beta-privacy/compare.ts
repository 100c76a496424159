import type { RecordComparison } from '../../common/mechanism.js';

/** Compared at several β coefficients; the pool reads its sensitive column from the sensitive table. */
export const comparison: RecordComparison = {
  releasesRecords: true,
  axis: {
    words: 'β coefficient', key: 'beta.coefficient', suggested: '8, 12, 16', min: 0, max: 1e6, integer: false, includedByDefault: true,
    apply: (m, v) => ({ ...m, beta: { coefficient: v } }),
  },
  estimator: "sensitive column by its share in the record's bucket (sensitive table, fake values as listed); other columns from the QI table",
  guaranteeLabel: ({ method }) => {
    const p = method.parameters;
    return p['coefficient'] !== undefined ? `β-privacy, β_v = min(1, ${String(p['coefficient'])}·f_v)` : `β-privacy, β = ${String(p['betaDefault'])} (with any per-value β of the job)`;
  },
};
