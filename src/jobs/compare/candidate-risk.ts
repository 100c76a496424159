import { comparedPartsOf } from '../../mechanisms/node-registry.js';
import type { CandidateRisk } from '../method-kit/compare-kit.js';
import type { MethodOutcome } from '../method-kit/outcome.js';

export type { CandidateRisk } from '../method-kit/compare-kit.js';
export { bucketGuesses } from '../method-kit/compare-bucketized.js';

/**
 * The common risk axis, per method, from what its run computed: the share of
 * the input's records whose sensitive value (randomized response, β-privacy)
 * or identity (k-anonymity methods) the method's own attack model recovers
 * (its Node part's `compare.risk`).
 */
export function candidateRisk(outcome: MethodOutcome, inputRows: number): CandidateRisk {
  return comparedPartsOf(outcome.method.type).node.risk(outcome, inputRows);
}
