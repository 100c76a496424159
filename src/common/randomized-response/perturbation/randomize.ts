import { exactBernoulli, uniformIntSampler, type ExactBernoulli } from '../../random/draws.js';
import type { RandomSource } from '../../random/source.js';
import type { Rational } from '../../exact/rational.js';

/**
 * Uniform perturbation of one value: keep it with probability p,
 * otherwise replace it by a uniform draw over the whole domain, itself included.
 * Domain indices are 0..m-1.
 */
export class UniformPerturber {
  private readonly keep: ExactBernoulli;
  private readonly anyValue: (source: RandomSource) => number;
  constructor(
    retention: Rational,
    readonly domainSize: number,
  ) {
    this.keep = exactBernoulli(retention);
    this.anyValue = uniformIntSampler(domainSize);
  }
  perturb(source: RandomSource, value: number): number {
    return this.keep.draw(source) ? value : this.anyValue(source);
  }
}

/** Perturbs a whole array of domain indices independently. */
export function perturbAll(source: RandomSource, values: Uint32Array, perturber: UniformPerturber): Uint32Array {
  const out = new Uint32Array(values.length);
  for (let i = 0; i < values.length; i++) out[i] = perturber.perturb(source, values[i]!);
  return out;
}
