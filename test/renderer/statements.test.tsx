// @vitest-environment happy-dom
/**
 * What the app says of a guarantee that is not claimed and of the journalist's risk (issue 30):
 * no pass or failure where no guarantee is claimed; the journalist's highest risk as a bound,
 * the population's figures as estimates.
 */
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Report } from '../../src/common/ipc/api.js';
import { guaranteeVerdict, verdictWords } from '../../src/common/report/guarantee-verdict.js';
import { reidentificationRisk, withSamplingFraction } from '../../src/common/risk/reidentification.js';
import { IdentityRisk } from '../../src/renderer/components/identity-risk.js';

afterEach(cleanup);

describe('guarantee verdicts', () => {
  it('holds, fails, or none claimed for the release as a whole when holds is absent', () => {
    expect([guaranteeVerdict({ holds: true }), guaranteeVerdict({ holds: false }), guaranteeVerdict({})]).toEqual(['holds', 'fails', 'not-claimed']);
    expect(verdictWords({ holds: false }, true)).toBe('DOES NOT HOLD');
    expect(verdictWords({}, true)).toBe('no guarantee is claimed for the release as a whole');
  });
});

describe('the journalist risk in the risk preview', () => {
  it('gives the bound 1/|class| as the highest risk and π/|class| as an estimate, never as "up to"', () => {
    // Classes of 1, 4 and 5 records at π = 0.1: the bound is 1 (a sample unique), the estimate 0.1.
    const release = withSamplingFraction(reidentificationRisk([1, 4, 5]), 0.1);
    expect(release.journalistHighest).toBe(1);
    expect(release.journalistEstimateHighest).toBeCloseTo(0.1, 12);
    const report = { kind: 'assessment', risk: { reidentification: { quasiIdentifiers: ['age'], population: 'sampling fraction π = 0.1', release } } } as unknown as Report;
    render(<IdentityRisk report={report} />);
    const text = screen.getByText(/journalist/).textContent ?? '';
    expect(text).toMatch(/succeeds with probability at most 100\.0%/);
    expect(text).toMatch(/about 10\.0% .* an estimate and not a bound: a record unique in the data may be unique in the population/);
    expect(text).not.toMatch(/up to 10\.0%/);
  });
});
