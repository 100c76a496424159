/**
 * Exact rationals over bigint. Thresholds compared with integer counts and
 * probabilities applied as Bernoulli draws must not pass through IEEE doubles
 * (⌊0.29·100⌋ is 28 in doubles).
 */
export interface Rational {
  readonly num: bigint;
  readonly den: bigint;
}

function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

export function rational(num: bigint, den: bigint = 1n): Rational {
  if (den === 0n) throw new RangeError('zero denominator');
  if (den < 0n) {
    num = -num;
    den = -den;
  }
  const g = gcd(num, den);
  return g > 1n ? { num: num / g, den: den / g } : { num, den };
}

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;
const FRACTION = /^\s*([+-]?\d+)\s*\/\s*(\d+)\s*$/;

/** Parses "0.29", "1e-3", "8/15" to the exact value they write. */
export function parseRational(text: string): Rational {
  const fraction = FRACTION.exec(text);
  if (fraction) return rational(BigInt(fraction[1]!), BigInt(fraction[2]!));
  const match = DECIMAL.exec(text.trim());
  if (!match || (match[2] === '' && (match[3] ?? '') === '')) {
    throw new SyntaxError(`"${text}" is not a decimal number or a fraction`);
  }
  const [, sign, whole, frac = '', exp = '0'] = match;
  let num = BigInt((whole || '0') + frac);
  let den = 10n ** BigInt(frac.length);
  const e = Number(exp);
  if (e >= 0) num *= 10n ** BigInt(e);
  else den *= 10n ** BigInt(-e);
  return rational(sign === '-' ? -num : num, den);
}

/**
 * A JSON number means the decimal it is written as; JavaScript's shortest
 * round-trip formatting recovers that text for every number a person types.
 */
export function rationalFromNumber(value: number): Rational {
  if (!Number.isFinite(value)) throw new RangeError(`${value} is not finite`);
  return parseRational(String(value));
}

export function toNumber(r: Rational): number {
  return Number(r.num) / Number(r.den);
}

export const add = (a: Rational, b: Rational): Rational => rational(a.num * b.den + b.num * a.den, a.den * b.den);
export const sub = (a: Rational, b: Rational): Rational => rational(a.num * b.den - b.num * a.den, a.den * b.den);
export const mul = (a: Rational, b: Rational): Rational => rational(a.num * b.num, a.den * b.den);
export const div = (a: Rational, b: Rational): Rational => rational(a.num * b.den, a.den * b.num);
export const compare = (a: Rational, b: Rational): number => {
  const d = a.num * b.den - b.num * a.den;
  return d < 0n ? -1 : d > 0n ? 1 : 0;
};
export const floor = (r: Rational): bigint => (r.num >= 0n ? r.num / r.den : -((-r.num + r.den - 1n) / r.den));
export const ceil = (r: Rational): bigint => -floor(rational(-r.num, r.den));

export function formatRational(r: Rational): string {
  return r.den === 1n ? r.num.toString() : `${r.num}/${r.den}`;
}
