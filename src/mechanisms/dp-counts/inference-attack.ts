import { uniformUnit } from '../../common/random/draws.js';
import type { RandomSource } from '../../common/random/source.js';
import { laplaceQuantile } from '../../common/random/exact-samplers.js';

/**
 * The differential-inference attack: from noisy Q1 = COUNT(group)
 * and Q2 = COUNT(group ∧ SA = x) the adversary estimates f = o2/o1 by o2′/o1′.
 * Delta-method moments plus Monte Carlo tail probabilities (a simulation: the
 * continuous inverse CDF is fine here, nothing is released).
 */
export interface InferenceRisk {
  readonly o1: number;
  readonly o2: number;
  readonly f: number;
  readonly meanApprox: number;
  readonly sdApprox: number;
  readonly pAbove: number;
  readonly pBelow: number;
}

export function differentialInference(source: RandomSource, o1: number, o2: number, b: number, epsilon: number, draws = 100_000): InferenceRisk {
  const f = o2 / o1;
  let above = 0;
  let below = 0;
  for (let i = 0; i < draws; i++) {
    const n1 = o1 + laplaceQuantile(Math.max(uniformUnit(source), 1e-300), b);
    const n2 = o2 + laplaceQuantile(Math.max(uniformUnit(source), 1e-300), b);
    const estimate = n2 / n1;
    const relative = (estimate - f) / f;
    if (relative > epsilon) above++;
    else if (relative < -epsilon) below++;
  }
  return {
    o1, o2, f,
    meanApprox: f * (1 + (2 * b * b) / (o1 * o1)),
    sdApprox: Math.sqrt(((2 * b * b) / (o1 * o1)) * (1 + f * f)),
    pAbove: above / draws,
    pBelow: below / draws,
  };
}
