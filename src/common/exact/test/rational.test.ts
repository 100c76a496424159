import { describe, expect, it } from 'vitest';
import { ceil, div, floor, formatRational, mul, parseRational, rational, rationalFromNumber } from '../rational.js';

describe('exact rationals', () => {
  it('parses decimals, exponents and fractions exactly', () => {
    expect(parseRational('0.29')).toEqual({ num: 29n, den: 100n });
    expect(parseRational('8/15')).toEqual({ num: 8n, den: 15n });
    expect(parseRational('1e-3')).toEqual({ num: 1n, den: 1000n });
    expect(parseRational('-2.50')).toEqual({ num: -5n, den: 2n });
    expect(() => parseRational('abc')).toThrow(/not a decimal/);
    expect(() => parseRational('.')).toThrow();
  });

  it('gets the floors that IEEE doubles get wrong', () => {
    expect(Math.floor(0.29 * 100)).toBe(28);
    expect(floor(mul(parseRational('0.29'), rational(100n)))).toBe(29n);
    expect(floor(mul(parseRational('0.58'), rational(50n)))).toBe(29n);
    expect(floor(mul(rational(2n * 87n, 300n), rational(50n)))).toBe(29n);
    expect(ceil(div(rational(1n), rational(2n, 30162n)))).toBe(15081n);
  });

  it('reads a JSON number as the decimal it is written as', () => {
    expect(rationalFromNumber(0.5)).toEqual({ num: 1n, den: 2n });
    expect(formatRational(rationalFromNumber(0.3))).toBe('3/10');
    expect(rationalFromNumber(1e-7)).toEqual({ num: 1n, den: 10000000n });
  });
});
