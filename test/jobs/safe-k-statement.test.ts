import { describe, expect, it } from 'vitest';
import { safeKStatement } from '../../src/jobs/methods/safe-k-anonymity.js';

describe('the safe k-anonymity guarantee in words', () => {
  it('states (ε,δ)-DP as e^ε·P + δ, not as a factor e^ε except with probability δ', () => {
    const text = safeKStatement({ epsilon: 1, delta: '1.0e-5', beta: 0.5, k: 10, search: undefined });
    expect(text).toMatch(/Pr\[release ∈ S\] ≤ e\^ε·Pr\[release′ ∈ S\] \+ δ/);
    expect(text).not.toMatch(/except with probability/);
  });

  it('does not claim the levels were fixed before the data were read; the search covers its own choice', () => {
    const fixed = safeKStatement({ epsilon: 1, delta: '1.0e-5', beta: 0.5, k: 10, search: undefined });
    expect(fixed).not.toMatch(/fixed before the data were read/);
    expect(fixed).toMatch(/only if they were chosen without looking at this data/);
    const searched = safeKStatement({ epsilon: 1.1, delta: '1.0e-5', beta: 0.5, k: 10, search: { anonymization: 1, selection: 0.1 } });
    expect(searched).toMatch(/chosen by the exponential mechanism on the sample, within the stated ε/);
  });
});
