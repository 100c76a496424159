import { describe, expect, it } from 'vitest';
import { estimateCount, expectedObserved, reconstructFrequency } from '../perturbation/estimate.js';
import { maxRetentionForRho, perturbationMatrix, posterior } from '../perturbation/retention.js';
import { formatRational, parseRational, toNumber } from '../../exact/rational.js';

const r = parseRational;

describe('maximum retention for ρ1–ρ2 privacy', () => {
  it('004 Example 1: ρ1 = 0.1, ρ2 = 0.5, m = 10', () => {
    const { gamma, retention } = maxRetentionForRho(r('0.1'), r('0.5'), 10);
    expect(formatRational(gamma)).toBe('9');
    expect(formatRational(retention)).toBe('4/9');
    const p = toNumber(retention);
    const { diagonal, offDiagonal } = perturbationMatrix(p, 10);
    expect(diagonal).toBeCloseTo(0.5, 12);
    expect(offDiagonal).toBeCloseTo(1 / 18, 12);
    const prior = [0.1, ...new Array(9).fill(0.1)];
    expect(posterior(prior, p, 0, 0)).toBeCloseTo(0.5, 12);
  });

  it('OCC-like and binary cases', () => {
    const occ = maxRetentionForRho(r('0.05'), r('0.5'), 50);
    expect(formatRational(occ.gamma)).toBe('19');
    expect(toNumber(occ.retention)).toBeCloseTo(0.264706, 6);
    expect(formatRational(occ.retention)).toBe('9/34');
    const binary = maxRetentionForRho(r('0.2'), r('0.8'), 2);
    expect(formatRational(binary.gamma)).toBe('16');
    expect(formatRational(binary.retention)).toBe('15/17');
  });

  it('rejects invalid ρ and m', () => {
    expect(() => maxRetentionForRho(r('0.5'), r('0.5'), 10)).toThrow(/rho1 < rho2/);
    expect(() => maxRetentionForRho(r('0.1'), r('0.5'), 1)).toThrow(/at least 2/);
  });
});

describe('MLE reconstruction', () => {
  it('keeps raw values outside [0,1]', () => {
    expect(reconstructFrequency(560, 1000, 0.5, 10)).toBeCloseTo(1.02, 12);
    expect(estimateCount(560, 1000, 0.5, 10)).toBeCloseTo(1020, 9);
  });
  it('second example', () => {
    expect(reconstructFrequency(37, 200, 0.7, 5)).toBeCloseTo(0.178571, 6);
    expect(estimateCount(37, 200, 0.7, 5)).toBeCloseTo(35.714, 3);
  });
  it('Example 1 attack: a uniform micro group of 100 x_1 rows is recovered', () => {
    const observed = expectedObserved(100, 1, 4 / 9, 10);
    expect(observed).toBeCloseTo(50, 9);
    expect(reconstructFrequency(observed, 100, 4 / 9, 10)).toBeCloseTo(1, 12);
  });
});
