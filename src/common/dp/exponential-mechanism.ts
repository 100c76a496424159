import { uniformInt } from '../random/draws.js';
import type { RandomSource } from '../random/source.js';
import { div, mul, rational, sub, toNumber, type Rational } from '../exact/rational.js';
import { bernoulliExp, bernoulliExpMinusOne } from '../random/exact-samplers.js';

/**
 * Candidates with integer scores, some of them known only by an upper bound
 * until asked: a search can skip scoring whole regions it can bound.
 */
export interface Candidates {
  /** The score of candidate i, or an upper bound of it where isExact(i) is false. */
  readonly value: ArrayLike<number>;
  isExact(i: number): boolean;
  /** The exact score of a candidate known only by its bound. */
  resolve(i: number): number;
}

export const exactCandidates = (scores: ArrayLike<number>): Candidates => ({ value: scores, isExact: () => true, resolve: (i) => scores[i]! });

/**
 * The exponential mechanism, Pr[i] ∝ exp(ε·u_i/(2Δ)), drawn exactly: propose i
 * uniformly and accept with an exact Bernoulli(exp(−γ)), γ = ε·(u* − u_i)/(2Δ)
 * rational (u* is the largest value). For a candidate known by its bound b_i the
 * coin is split in two, exp(−ε(u* − b_i)/2Δ)·exp(−ε(b_i − u_i)/2Δ), and u_i is
 * computed only when the first succeeds. Rejection sampling yields exactly the
 * target distribution, so no floating-point weight decides the draw; how long
 * it takes depends on the scores, what it returns does not otherwise.
 */
export function exponentialMechanism(source: RandomSource, candidates: Candidates, epsilon: Rational, sensitivity: Rational): number {
  const { value } = candidates;
  const count = value.length;
  if (count === 0) throw new RangeError('the exponential mechanism needs at least one candidate');
  let top = -Infinity;
  for (let i = 0; i < count; i++) {
    if (!Number.isSafeInteger(value[i]!)) throw new RangeError(`score ${value[i]} is not a safe integer`);
    if (value[i]! > top) top = value[i]!;
  }
  const rate = div(epsilon, mul(rational(2n), sensitivity));
  const rateBelow = toNumber(rate) * (1 - 1e-9);
  const coin = (gap: number): boolean => {
    if (gap === 0) return true;
    // The first ⌊γ⌋ factors e^−1 as small-integer coins (a float floor kept safely below γ):
    // most proposals fail one of them and never touch rational arithmetic.
    const whole = Math.min(64, Math.floor(rateBelow * gap));
    for (let t = 0; t < whole; t++) if (!bernoulliExpMinusOne(source)) return false;
    return bernoulliExp(source, sub(mul(rate, rational(BigInt(gap))), rational(BigInt(whole))));
  };
  const resolved = new Map<number, number>();
  for (;;) {
    const i = uniformInt(source, count);
    if (!coin(top - value[i]!)) continue;
    if (candidates.isExact(i)) return i;
    let score = resolved.get(i);
    if (score === undefined) {
      score = candidates.resolve(i);
      if (!Number.isSafeInteger(score) || score > value[i]!) throw new RangeError(`candidate ${i} scores ${score}, above its bound ${value[i]}`);
      resolved.set(i, score);
    }
    if (coin(value[i]! - score)) return i;
  }
}
