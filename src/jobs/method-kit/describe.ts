import { amplification } from '../../common/randomized-response/perturbation/retention.js';
import { reconstructFrequency } from '../../common/randomized-response/perturbation/estimate.js';
import { formatRational } from '../../common/exact/rational.js';
import type { SensitiveReport } from '../../common/report/report-model.js';
import type { SensitiveAnalysis } from './analyze.js';

const PRIORS = [0.01, 0.05, 0.1, 0.2, 0.3, 0.5];

/** Smallest ρ2 reached at prior ρ1 when the matrix's ratio is γ_p. */
export function rhoCurve(p: number, m: number): { rho1: number; rho2: number }[] {
  const gamma = amplification(p, m);
  return PRIORS.map((rho1) => ({ rho1, rho2: (gamma * rho1) / (1 - rho1 + gamma * rho1) }));
}

/** The part of a sensitive attribute's report that assessment alone determines. */
export function baseSensitiveReport(s: SensitiveAnalysis, violatingAfter: number): SensitiveReport {
  return {
    column: s.column.name,
    domainSize: s.params.m,
    domainDeclared: s.domain.declared,
    retention: s.params.p,
    retentionExact: formatRational(s.retention),
    microGroups: s.risk.microGroups,
    violatingBefore: s.risk.violating,
    violatingRowsBefore: s.risk.violatingRows,
    violatingAfter,
    largestValidEpsilon: s.risk.largestValidEpsilon,
    unprotectableGroups: s.risk.unprotectable,
    relativeError: {},
    queries: 0,
    queryAttempts: 0,
    rhoCurve: rhoCurve(s.params.p, s.params.m),
  };
}

/** True frequencies against the MLE reconstruction from a released sensitive column. */
export function distributionOf(s: SensitiveAnalysis, released: Uint32Array): NonNullable<SensitiveReport['distribution']> {
  const m = s.params.m;
  const truth = new Float64Array(m);
  for (let i = 0; i < s.values.length; i++) truth[s.values[i]!]!++;
  const seen = new Float64Array(m);
  for (let i = 0; i < released.length; i++) seen[released[i]!]!++;
  return s.domain.values.map((value, v) => ({
    value,
    original: truth[v]! / s.values.length,
    ...(released.length === 0 ? {} : { reconstructed: reconstructFrequency(seen[v]!, released.length, s.params.p, m) }),
  }));
}
