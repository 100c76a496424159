import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareLog } from '../log.js';
import { parseRational, rational } from '../rational.js';

// ln 2 and ln 3 to 50 decimals (OEIS A002162, A002391): the reference the exact comparison must agree with.
const LN2 = parseRational('0.69314718055994530941723212145817656807550013436025');
const LN3 = parseRational('1.09861228866810969139524523692252570464749055782275');
const ULP50 = rational(1n, 10n ** 50n);

/** r shifted by ±10⁻⁵⁰: both sides of a constant known to 50 decimals. */
const plus = (r: { num: bigint; den: bigint }, s: { num: bigint; den: bigint }) => rational(r.num * s.den + s.num * r.den, r.den * s.den);
const minus = (r: { num: bigint; den: bigint }, s: { num: bigint; den: bigint }) => rational(r.num * s.den - s.num * r.den, r.den * s.den);

describe('compareLog: the sign of ln(a/b) − r, exactly', () => {
  it('places ln 2 and ln 3 between their 50-decimal values ± 10⁻⁵⁰, where a double cannot tell', () => {
    expect(compareLog(2n, 1n, minus(LN2, ULP50))).toBe(1);
    expect(compareLog(2n, 1n, plus(LN2, ULP50))).toBe(-1);
    expect(compareLog(3n, 1n, minus(LN3, ULP50))).toBe(1);
    expect(compareLog(3n, 1n, plus(LN3, ULP50))).toBe(-1);
    // ln(6/2) is ln 3 too: the reduction to [1, 2) with k = 1 (6/2 = 2·1.5).
    expect(compareLog(6n, 2n, minus(LN3, ULP50))).toBe(1);
    expect(compareLog(6n, 2n, plus(LN3, ULP50))).toBe(-1);
    // ln 1024 = 10 ln 2: k = 10, m = 1.
    expect(compareLog(1024n, 1n, minus(rational(10n * LN2.num, LN2.den), rational(10n, 10n ** 50n)))).toBe(1);
    expect(compareLog(1024n, 1n, plus(rational(10n * LN2.num, LN2.den), rational(10n, 10n ** 50n)))).toBe(-1);
  });

  it('the continued-fraction convergents of ln 2 lie alternately below and above it', () => {
    // ln 2 = [0; 1, 2, 3, 1, 6, 3, 1, 1, 2, 1, 1, 1, 1, 3, 10, 1, 1, 1, 2, 1, 1, 1, 1, 3, 2, 3, 1, 13, 7]
    const terms = [0, 1, 2, 3, 1, 6, 3, 1, 1, 2, 1, 1, 1, 1, 3, 10, 1, 1, 1, 2, 1, 1, 1, 1, 3, 2, 3, 1, 13, 7];
    let [h0, h1, k0, k1] = [1n, BigInt(terms[0]!), 0n, 1n];
    for (let i = 1; i < terms.length; i++) {
      [h0, h1] = [h1, BigInt(terms[i]!) * h1 + h0];
      [k0, k1] = [k1, BigInt(terms[i]!) * k1 + k0];
      // Even-indexed convergents are below ln 2, odd-indexed above.
      expect(compareLog(2n, 1n, rational(h1, k1))).toBe(i % 2 === 0 ? 1 : -1);
    }
    // The last ones lie within 10⁻²⁰ of ln 2, beyond what a double distinguishes.
    expect(k1 > 10n ** 10n).toBe(true);
  });

  it('ln 1 = 0 is compared with r directly; a negative r is below any ln(a/b) ≥ 0', () => {
    expect(compareLog(7n, 7n, rational(0n))).toBe(0);
    expect(compareLog(7n, 7n, rational(1n, 10n ** 30n))).toBe(-1);
    expect(compareLog(7n, 7n, rational(-1n, 3n))).toBe(1);
    expect(compareLog(8n, 7n, rational(-1n, 3n))).toBe(1);
    expect(() => compareLog(1n, 2n, rational(0n))).toThrow(RangeError);
  });

  it('agrees with Math.log wherever the double is far from r (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 0, max: 1_000_000 }), fc.integer({ min: 1, max: 400_000 }), fc.integer({ min: 1, max: 100_000 }), (b, extra, rNum, rDen) => {
        const a = b + extra;
        const ln = Math.log(a / b);
        const r = rNum / rDen;
        if (Math.abs(ln - r) < 1e-9 * Math.max(1, r)) return;
        expect(compareLog(BigInt(a), BigInt(b), rational(BigInt(rNum), BigInt(rDen)))).toBe(ln > r ? 1 : -1);
      }),
      { seed: 20261128, numRuns: 2000 },
    );
  });
});
