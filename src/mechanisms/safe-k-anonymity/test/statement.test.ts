import { describe, expect, it } from 'vitest';
import { safeKConditionsHold } from '../node/run.js';
import { safeKStatement } from '../statement.js';

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

describe('the safe k-anonymity guarantee is checked, not asserted', () => {
  const valid = { k: 10, beta: 0.5, epsilon: 1, delta: 1e-5 };
  it('holds when every class meets k, δ < 1 and ε ≥ −ln(1 − β), including an empty release', () => {
    expect(safeKConditionsHold(valid, 10)).toBe(true);
    expect(safeKConditionsHold(valid, 0)).toBe(true);
  });
  it('fails for a class below k, δ not a probability below 1, ε below −ln(1 − β), or β outside (0, 1)', () => {
    expect(safeKConditionsHold(valid, 9)).toBe(false);
    expect(safeKConditionsHold({ ...valid, delta: 1 }, 10)).toBe(false);
    expect(safeKConditionsHold({ ...valid, delta: Number.NaN }, 10)).toBe(false);
    // −ln(1 − 0.5) ≈ 0.693: ε = 0.69 is below it.
    expect(safeKConditionsHold({ ...valid, epsilon: 0.69 }, 10)).toBe(false);
    expect(safeKConditionsHold({ ...valid, beta: 1 }, 10)).toBe(false);
  });
});
