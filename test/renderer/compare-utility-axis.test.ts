import { describe, expect, it } from 'vitest';
import { QUERY_ERROR_AXIS, utilityAxisOf } from '../../src/common/compare/axes.js';
import { chartLayout } from '../../src/common/compare/chart.js';
import type { CandidateResult } from '../../src/common/compare/comparison.js';
import { named } from '../../src/common/job/names.js';
import { jobSchema } from '../../src/mechanisms/job-schema.js';
import { buildCandidates, initialFamilies } from '../../src/renderer/state/compare-candidates.js';
import { initialState, type WizardState } from '../../src/renderer/state/wizard-state.js';

const state: WizardState = {
  ...initialState,
  inputPath: '/data/adult.csv',
  roles: named([['occupation', 'sensitive'], ['age', 'quasi'], ['salary-class', 'insensitive']]),
  method: 'reconstruction-privacy',
  output: { ...initialState.output, dir: '/data/adult-release' },
};

describe("the Compare step's utility axis", () => {
  it('the accuracy axis asks every candidate\'s job for the classifier of the chosen column; the query error asks nothing more', () => {
    const families = initialFamilies('reconstruction-privacy');
    const accuracy = buildCandidates(state, families, true, { axis: 'accuracy-lost', target: 'salary-class' });
    for (const c of accuracy) {
      expect(c.job['utility']).toEqual({ target: 'salary-class' });
      expect(jobSchema.safeParse(c.job).success, c.label).toBe(true);
    }
    for (const c of buildCandidates(state, families, true, { axis: 'table-distance' })) expect(c.job['utility']).toEqual({});
    for (const c of buildCandidates(state, families, true, { axis: 'query-error', target: 'salary-class' })) expect(c.job['utility']).toBeUndefined();
  });

  it('the chart places candidates by the axis chosen: accuracy lost, input minus release, never below 0', () => {
    const candidate = (id: number, release: number, input: number): CandidateResult => ({
      id, label: `c${id}`, job: '', grid: [], method: { type: 'uniform-perturbation', title: '' }, parameters: '', guarantee: { label: '', statement: '', holds: true },
      risk: { share: id / 10, measure: '' }, utility: { relativeError: 0.5, estimator: '', accuracy: { target: 'y', release, input } }, releasedRecords: 10, frontier: false,
    });
    const axis = utilityAxisOf('accuracy-lost');
    const candidates = [candidate(1, 0.7, 0.8), candidate(2, 0.9, 0.8), { ...candidate(3, 0, 0), utility: { estimator: '' } }];
    expect(candidates.map((c) => axis.value(c.utility))).toEqual([0.8 - 0.7, 0, undefined]);
    expect(chartLayout(candidates, axis).placed.map((c) => c.id)).toEqual([1, 2]);
    expect(chartLayout(candidates, QUERY_ERROR_AXIS).placed.map((c) => c.id)).toEqual([1, 2]);
    expect(axis.text(0.1)).toBe('10.0 points');
  });
});
