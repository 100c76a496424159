import { rationalFromNumber, toNumber } from '../../../common/exact/rational.js';
import { maxRetentionForRho } from '../../../common/randomized-response/perturbation/retention.js';
import { countBy, tupleKeys } from '../../../jobs/method-kit/released-table.js';
import { addAgreementCheck, countsByGroup, verifyRandomized } from '../../../jobs/method-kit/verify-randomized.js';
import type { UniformPerturbationSpec } from '../definition.js';

/**
 * Uniform perturbation changes the sensitive values only: with the original, every input record must
 * appear once with its non-sensitive values, and released values must agree with the true ones as
 * often as the retention's law says.
 */
export const verifyUniformPerturbation = verifyRandomized<UniformPerturbationSpec>({
  ownFile: false,
  // As given, or the largest retention ρ1–ρ2 allows (exact, as the run computes it).
  retention: (spec, m) =>
    spec.retention !== undefined
      ? toNumber(rationalFromNumber(spec.retention))
      : toNumber(maxRetentionForRho(rationalFromNumber(spec.rho1!), rationalFromNumber(spec.rho2!), m).retention),
  needsOriginal: ['non-sensitive columns unchanged'],
  checkAgainstOriginal: (checks, _ctx, _spec, c) => {
    const groups = countBy(c.keys);
    const same = groups.size === c.released.size && [...groups].every(([k, n]) => c.released.get(k) === n);
    checks.add(`${c.column}: non-sensitive columns unchanged`, same, same ? 'every input record appears once with its non-sensitive values' : 'the multiset of non-sensitive tuples differs from the input');
    const truth = countsByGroup(c.keys, tupleKeys(c.original, [c.column], c.writtenForm));
    addAgreementCheck(checks, c.column, [...truth].map(([key, counts]) => ({ truth: counts, released: c.releasedValues.get(key) ?? new Map() })), c.p, c.m, '');
  },
});
