import { describe, expect, it } from 'vitest';
import { parameterLabel, parameterValue } from '../parameter-labels.js';
import { readableTime } from '../format.js';

describe('parameter labels in the reports', () => {
  it('names known keys in words and symbols, keys made per column with the column (a name may hold dots), unknown keys spelt out', () => {
    expect(parameterLabel('retention')).toBe('Retention probability p');
    expect(parameterLabel('riskEpsilon')).toBe('ε of the risk test');
    expect(parameterLabel('k')).toBe('k');
    expect(parameterLabel('occupation.m')).toBe('m (values of the sensitive column) of “occupation”');
    expect(parameterLabel('v1.2.sizeThresholdRange')).toBe('Size threshold range of “v1.2”');
    expect(parameterLabel('someNewEpsilonBound')).toBe('Some new ε bound');
    expect(parameterValue(true)).toBe('yes');
    expect(parameterValue(false)).toBe('no');
    expect(parameterValue(0.5)).toBe('0.5');
  });

  it('shows a report time as a reader reads it, and leaves any other text as it is', () => {
    expect(readableTime('2026-11-25T10:12:05.231Z')).toBe('2026-11-25 10:12 UTC');
    expect(readableTime('yesterday')).toBe('yesterday');
  });
});
