import { describe, expect, it } from 'vitest';
import { qualityWords } from '../quality-words.js';
import type { Report } from '../report-model.js';

const reportWith = (internal: Record<string, number> | undefined) => ({ method: { type: 'global-recoding', title: '', parameters: {}, derived: {}, ...(internal ? { internal } : {}) } }) as unknown as Report;

describe('ARX quality measures in words', () => {
  it('every quality key of method.internal, per attribute by column, and nothing else', () => {
    const internal = Object.assign(Object.create(null) as Record<string, number>, {
      qualityHeight: 3, qualityRelativeHeight: 0.25, qualityAverageClassSize: 12.5, qualityDiscernibility: 4200, qualityAmbiguity: 6, qualityKlDivergenceBits: 0.123456,
      'qualityPrecision age': 0.5, 'qualityNonUniformEntropyBits age': 1234.5678, searchMilliseconds: 10,
    });
    const words = qualityWords(reportWith(internal));
    expect(words.map(([label, value]) => [label, value])).toEqual([
      ['Height', '3'], ['Average class size', '12.5'], ['Discernibility', '4,200'], ['Ambiguity', '6'], ['KL divergence', '0.1235'],
      ['Precision, age', '0.5'], ['Non-uniform entropy, age', '1,235'],
    ]);
    expect(words[0]![2]).toContain('25 %');
  });

  it('a report without them (another method, or local suppression) has none', () => {
    expect(qualityWords(reportWith(undefined))).toEqual([]);
    expect(qualityWords(reportWith({ searchMilliseconds: 3 }))).toEqual([]);
  });
});
