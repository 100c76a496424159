import type { Rational } from '../exact/rational.js';
import { ScriptedCoinSource, type RandomSource } from './source.js';

const TWO_32 = 4294967296;

/** Uniform integer in [0, n) for 1 ≤ n ≤ 2^32, by rejection (no modulo bias). */
export function uniformInt(source: RandomSource, n: number): number {
  checkBound(n);
  if (source instanceof ScriptedCoinSource) return Math.floor(source.nextCoin() * n);
  if (n === 1) return 0;
  return below(source, n, rejectionLimit(n));
}

/**
 * uniformInt(·, n) with its bound checked and its rejection limit computed once: the same draws from
 * the same words, for a caller that draws millions below one bound (a perturbation's coins and values).
 */
export function uniformIntSampler(n: number): (source: RandomSource) => number {
  checkBound(n);
  const limit = rejectionLimit(n);
  return (source) => {
    if (source instanceof ScriptedCoinSource) return Math.floor(source.nextCoin() * n);
    if (n === 1) return 0;
    return below(source, n, limit);
  };
}

function checkBound(n: number): void {
  if (!Number.isInteger(n) || n < 1 || n > TWO_32) throw new RangeError(`uniformInt: bad bound ${n}`);
}

/**
 * The largest multiple of n not above 2^32: 2^32 − (2^32 mod n), with 2^32 mod n taken as
 * (2^32 − n) mod n. Remainders here are written x − ⌊x/n⌋·n: for integers x, n below 2^32 the double
 * quotient never rounds up to the next integer (x/n falls short of one by at least 1/n, far more than
 * its rounding error), so this is the exact remainder; `%` on numbers past 2^31 is a floating-point
 * remainder V8 computes by a call, and a run draws millions of these.
 */
function rejectionLimit(n: number): number {
  const excess = TWO_32 - n;
  return TWO_32 - (excess - Math.floor(excess / n) * n);
}

/** The first word below `limit`, reduced mod n. */
function below(source: RandomSource, n: number, limit: number): number {
  for (;;) {
    const u = source.nextUint32();
    if (u < limit) return u - Math.floor(u / n) * n;
  }
}

/** Uniform bigint in [0, n) by rejection over whole 32-bit words. */
export function uniformBigInt(source: RandomSource, n: bigint): bigint {
  if (n < 1n) throw new RangeError('uniformBigInt: bound must be positive');
  if (n <= 4294967296n) return BigInt(uniformInt(source, Number(n)));
  const bits = n.toString(2).length;
  const words = Math.ceil(bits / 32);
  const excess = BigInt(words * 32 - bits);
  for (;;) {
    let value = 0n;
    for (let i = 0; i < words; i++) value = (value << 32n) | BigInt(source.nextUint32());
    value >>= excess;
    if (value < n) return value;
  }
}

/** A uniform double in [0,1) with 53 random bits. */
export function uniformUnit(source: RandomSource): number {
  if (source instanceof ScriptedCoinSource) return source.nextCoin();
  const high = source.nextUint32() >>> 5;
  const low = source.nextUint32() >>> 6;
  return (high * 67108864 + low) / 9007199254740992;
}

/** A prepared exact Bernoulli(a/b): draw U uniform in [0,b), succeed when U < a. */
export interface ExactBernoulli {
  readonly probability: Rational;
  draw(source: RandomSource): boolean;
}

export function exactBernoulli(probability: Rational): ExactBernoulli {
  const { num, den } = probability;
  if (num < 0n || num > den) throw new RangeError('Bernoulli probability must lie in [0,1]');
  if (den <= BigInt(TWO_32)) {
    const a = Number(num);
    const b = Number(den);
    const below = uniformIntSampler(b);
    return {
      probability,
      draw: (source) => (source instanceof ScriptedCoinSource ? source.nextCoin() < a / b : below(source) < a),
    };
  }
  return {
    probability,
    draw: (source) =>
      source instanceof ScriptedCoinSource ? source.nextCoin() < Number(num) / Number(den) : uniformBigInt(source, den) < num,
  };
}

/** Bernoulli(q) for an irrational q: a 53-bit uniform compared with q. */
export function realBernoulli(source: RandomSource, q: number): boolean {
  if (q <= 0) return false;
  if (q >= 1) return true;
  return uniformUnit(source) < q;
}

/** In-place Fisher–Yates shuffle. */
export function shuffleInPlace(source: RandomSource, values: Uint32Array | number[]): void {
  for (let i = values.length - 1; i > 0; i--) {
    const j = uniformInt(source, i + 1);
    const t = values[i]!;
    values[i] = values[j]!;
    values[j] = t;
  }
}

/** A uniformly random permutation of 0..n-1. */
export function randomPermutation(source: RandomSource, n: number): Uint32Array {
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  shuffleInPlace(source, order);
  return order;
}
