/**
 * Exact decisions about natural logarithms of rationals: the sign of ln(a/b) − r for integers
 * a ≥ b > 0 and a rational r. A model whose threshold is a logarithm (β-likeness's −ln p,
 * δ-disclosure's |ln(q/p)| < δ) decides its boundary classes here, never by a rounded double.
 *
 * ln(a/b) = k·ln 2 + ln m with m = a/(b·2^k) in [1, 2), and ln y = 2·atanh((y − 1)/(y + 1)), whose
 * series Σ z^(2j+1)/(2j+1) for 0 ≤ z ≤ 1/3 is summed in exact rationals: J terms give a lower bound
 * S and the rest is at most z^(2J+1)/((2J+1)(1 − z²)), so ln(a/b) lies in a rational interval. r
 * outside it is decided; inside, the interval is narrowed (twice the terms) until it is not. For
 * a ≠ b, ln(a/b) is irrational (e^r is irrational for every rational r ≠ 0, Lindemann), so it never
 * equals r and the narrowing ends; for a = b the logarithm is 0 and compared with r directly.
 */
import type { Rational } from './rational.js';

/** The sign of x − y for rationals with positive denominators. */
function compare(xNum: bigint, xDen: bigint, yNum: bigint, yDen: bigint): -1 | 0 | 1 {
  const d = xNum * yDen - yNum * xDen;
  return d > 0n ? 1 : d < 0n ? -1 : 0;
}

const bitLength = (x: bigint): number => x.toString(2).length;

/** [lower, upper] of atanh(u/w) for 0 ≤ u/w ≤ 1/3, J terms, each bound as num/den (den > 0). */
function atanhBounds(u: bigint, w: bigint, terms: number): { loNum: bigint; hiNum: bigint; den: bigint } {
  // Every term over the common denominator w^(2J+1)·(product of the odd numbers up to 2J+1).
  let odd = 1n;
  for (let j = 0; j <= terms; j++) odd *= BigInt(2 * j + 1);
  const w2 = w * w;
  const u2 = u * u;
  const den = w ** BigInt(2 * terms + 1) * odd;
  let sum = 0n;
  // Term j: u^(2j+1) / (w^(2j+1)·(2j+1)) = u^(2j+1)·w^(2(J−j))·(odd/(2j+1)) / den.
  let uPow = u;
  let wPow = w ** BigInt(2 * terms);
  for (let j = 0; j < terms; j++) {
    sum += uPow * wPow * (odd / BigInt(2 * j + 1));
    uPow *= u2;
    wPow /= w2;
  }
  // The tail, at most z^(2J+1) / ((2J+1)(1 − z²)) = u^(2J+1)·w² / (w^(2J+1)·(2J+1)·(w² − u²)).
  const tailNum = uPow * (odd / BigInt(2 * terms + 1)) * w2;
  const tailDen = w2 - u2;
  // lower = sum/den; upper = sum/den + tailNum/(den·tailDen): over den·tailDen.
  return { loNum: sum * tailDen, hiNum: sum * tailDen + tailNum, den: den * tailDen };
}

/** The sign of ln(a/b) − r, for integers a ≥ b > 0. */
export function compareLog(a: bigint, b: bigint, r: Rational): -1 | 0 | 1 {
  if (b <= 0n || a < b) throw new RangeError('compareLog needs a ≥ b > 0');
  if (a === b) return r.num > 0n ? -1 : r.num < 0n ? 1 : 0;
  if (r.num <= 0n) return 1;
  // a/b = 2^k · m with m in [1, 2).
  let k = bitLength(a) - bitLength(b);
  if (a < b << BigInt(k)) k--;
  const mNum = a;
  const mDen = b << BigInt(k);
  for (let terms = 16; ; terms *= 2) {
    // ln(a/b) ∈ [2k·lo(atanh 1/3) + 2·lo(atanh z), 2k·hi(atanh 1/3) + 2·hi(atanh z)], z = (m − 1)/(m + 1).
    const two = atanhBounds(1n, 3n, terms);
    const z = atanhBounds(mNum - mDen, mNum + mDen, terms);
    const K = BigInt(2 * k);
    const den = two.den * z.den;
    const lo = K * two.loNum * z.den + 2n * z.loNum * two.den;
    const hi = K * two.hiNum * z.den + 2n * z.hiNum * two.den;
    if (compare(lo, den, r.num, r.den) > 0) return 1;
    if (compare(hi, den, r.num, r.den) < 0) return -1;
  }
}
