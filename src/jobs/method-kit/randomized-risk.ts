import type { Report, SensitiveReport } from '../../common/report/report-model.js';
import type { Analysis } from './analyze.js';

const ADVERSARY =
  'knows every released non-sensitive column of a target (quasi-identifiers and insensitive columns alike) and reconstructs the ' +
  "sensitive distribution of the target's micro group from the release (Wang, Han, Fu, Example 1)";

const POOL =
  '5,000 queries COUNT(*) WHERE A1=a1 ∧ … ∧ Ad=ad ∧ SA=x, d uniform in {1,2,3}, attributes, values and x uniform, kept when the true ' +
  'answer is ≥ 0.1% of the records; relative error |est − ans|/ans with the MLE estimator (Wang, Han, Fu, §6), averaged over ' +
  'every query of the pool, each counted exactly on the input and on the release (no estimate from a sample of the queries)';

function meanOver(values: readonly (number | undefined)[]): number | undefined {
  const finite = values.filter((v): v is number => v !== undefined && Number.isFinite(v));
  return finite.length === 0 ? undefined : finite.reduce((a, b) => a + b, 0) / finite.length;
}

/** Risk and utility sections shared by the two randomized-response methods. */
export function randomizedRiskAndUtility(analysis: Analysis, by: readonly SensitiveReport[], release: 'uniformPerturbation' | 'reconstructionPrivacy'): {
  risk: Report['risk'];
  utility: Report['utility'];
} {
  const up = meanOver(by.map((s) => s.relativeError.uniformPerturbation));
  const rp = meanOver(by.map((s) => s.relativeError.reconstructionPrivacy));
  const own = release === 'uniformPerturbation' ? up : rp;
  return {
    risk: {
      adversary: ADVERSARY,
      microGroups: analysis.grouping.groupCount,
      violatingBefore: by.reduce((sum, s) => sum + (s.violatingBefore ?? 0), 0),
      violatingAfter: by.reduce((sum, s) => sum + (s.violatingAfter ?? 0), 0),
      bySensitive: by,
    },
    utility: {
      relativeError: {
        ...(own !== undefined ? { release: own } : {}),
        ...(up !== undefined ? { uniformPerturbation: up } : {}),
        ...(rp !== undefined ? { reconstructionPrivacy: rp } : {}),
      },
      queryPool: POOL,
    },
  };
}

/** Adds the identity-disclosure measures to a risk section. */
export function withReidentification<T extends { risk: Report['risk'] }>(parts: T, reidentification: NonNullable<Report['risk']['reidentification']>): T {
  return { ...parts, risk: { ...parts.risk, reidentification } };
}
