import { describe, expect, it } from 'vitest';
import { named } from '../../src/common/job/names.js';
import { jobSchema } from '../../src/mechanisms/job-schema.js';
import { axisOf, buildCandidates, COMPARE_AXES, initialFamilies, parseValues } from '../../src/renderer/state/compare-candidates.js';
import { initialState, nextStepAfter, previousStepBefore, reducer, stepNumber, type WizardState } from '../../src/renderer/state/wizard-state.js';

const state: WizardState = {
  ...initialState,
  inputPath: '/data/adult.csv',
  roles: named([['occupation', 'sensitive'], ['age', 'quasi'], ['salary-class', 'insensitive']]),
  method: 'reconstruction-privacy',
  output: { ...initialState.output, dir: '/data/adult-release' },
};

describe("the Compare step's candidates", () => {
  it('are the current setting, then one per value of each ticked method, every one a job the run accepts', () => {
    const families = initialFamilies('reconstruction-privacy');
    const built = buildCandidates(state, families, true);
    // The current one plus three values of three methods ticked by default.
    expect(built).toHaveLength(10);
    expect(built[0]!.label).toBe('current setting (Reconstruction privacy)');
    expect(new Set(built.map((c) => c.method))).toEqual(new Set(['reconstruction-privacy', 'uniform-perturbation', 'beta-privacy']));
    for (const c of built) expect(jobSchema.safeParse(c.job).success, c.label).toBe(true);
    const beta = built.filter((c) => c.method === 'beta-privacy');
    expect(beta.map((c) => c.job.method)).toEqual([8, 12, 16].map((coefficient) => expect.objectContaining({ beta: { coefficient } })));
    expect(beta.map((c) => c.grid)).toEqual([8, 12, 16].map((v) => [{ key: 'beta.coefficient', value: String(v) }]));
    // Everything but the method is the wizard's job: same input, roles and release folder.
    for (const c of built) expect({ input: c.job.input, attributes: c.job.attributes, output: c.job.output }).toEqual({ input: built[0]!.job.input, attributes: built[0]!.job.attributes, output: built[0]!.job.output });
  });

  it('of a method whose form was not opened take the domain decision another form holds, else the file\'s values (the run refuses a column without one)', () => {
    const file = { path: '/data/adult.csv', columns: [{ name: 'occupation', type: 'text', distinct: 2, missing: 0, top: [{ value: 'Sales', count: 3 }, { value: 'Clerical', count: 2 }] }], rows: 5 } as unknown as NonNullable<WizardState['file']>;
    const families = initialFamilies('reconstruction-privacy');
    const domainsOf = (s: WizardState) => new Map(buildCandidates(s, families, false).map((c) => [c.method, (c.job.method as { domains?: unknown }).domains]));
    // Nothing decided anywhere: the file's values, as the form proposes them.
    expect(domainsOf({ ...state, file })).toEqual(new Map([['uniform-perturbation', { occupation: ['Clerical', 'Sales'] }], ['reconstruction-privacy', { occupation: ['Clerical', 'Sales'] }], ['beta-privacy', { occupation: ['Clerical', 'Sales'] }]]));
    // A decision made in one form (here "from-data" for reconstruction privacy) is the others' too.
    const decided = reducer({ ...state, file }, { type: 'patchDraft', method: 'reconstruction-privacy', patch: { domains: named([['occupation', 'from-data']]) } });
    expect([...domainsOf(decided).values()]).toEqual([{ occupation: 'from-data' }, { occupation: 'from-data' }, { occupation: 'from-data' }]);
    // No file and no decision: left undecided, for the run to refuse and name.
    expect([...domainsOf(state).values()]).toEqual([undefined, undefined, undefined]);
  });

  it('leave out unticked methods and values that do not read, and the current setting when asked', () => {
    const families = initialFamilies('uniform-perturbation').map((f) => (f.method === 'beta-privacy' ? { ...f, values: '8, x' } : f.method === 'reconstruction-privacy' ? { ...f, included: false } : f));
    const built = buildCandidates({ ...state, method: 'uniform-perturbation' }, families, false);
    expect(built.map((c) => c.label)).toEqual(['Randomized response, retention 0.3', 'Randomized response, retention 0.5', 'Randomized response, retention 0.7']);
    // dp-counts releases answers, not records: never a candidate, even as the current setting.
    expect(buildCandidates({ ...state, method: 'dp-counts' }, [], true)).toEqual([]);
  });

  it('read values in their range, whole numbers where the parameter is one, each once', () => {
    const k = axisOf('safe-k-anonymity')!;
    expect(parseValues(k, '5, 10 10;50')).toEqual({ values: [5, 10, 50] });
    expect(parseValues(k, '5.5')).toEqual({ problem: expect.stringMatching(/whole number/) });
    expect(parseValues(axisOf('uniform-perturbation')!, '0.3, 1.2')).toEqual({ problem: expect.stringMatching(/between 0 and 1/) });
    expect(parseValues(k, ' ')).toEqual({ problem: 'write at least one value' });
  });

  it('set k into the model of the recoding methods, keeping their other models', () => {
    const global = axisOf('global-recoding')!;
    expect(global.apply({ type: 'global-recoding', models: [{ type: 'distinct-l-diversity', l: 2 }, { type: 'k-anonymity', k: 5 }] }, 20)).toEqual({ type: 'global-recoding', models: [{ type: 'distinct-l-diversity', l: 2 }, { type: 'k-anonymity', k: 20 }] });
    expect(axisOf('partitioned-recoding')!.apply({ type: 'partitioned-recoding', parts: 2, model: { type: 'k-anonymity', k: 5 } }, 10)).toEqual({ type: 'partitioned-recoding', parts: 2, model: { type: 'k-anonymity', k: 10 } });
    // The methods `custos compare` measures, and no other (dp-counts releases answers, not records).
    expect(COMPARE_AXES.map((a) => a.method).sort()).toEqual(['beta-privacy', 'global-recoding', 'microaggregation', 'partitioned-recoding', 'reconstruction-privacy', 'safe-k-anonymity', 'uniform-perturbation']);
    expect(axisOf('microaggregation')!.apply({ type: 'microaggregation', columns: ['age'], k: 5 }, 10)).toEqual({ type: 'microaggregation', columns: ['age'], k: 10 });
  });
});

describe('the optional Compare step in the flow', () => {
  it('is passed by Next and Back, and has no number, so the other steps keep theirs', () => {
    expect(nextStepAfter('parameters')?.id).toBe('risk');
    expect(nextStepAfter('compare')?.id).toBe('risk');
    expect(previousStepBefore('risk')?.id).toBe('parameters');
    expect(previousStepBefore('compare')?.id).toBe('parameters');
    expect(stepNumber('compare')).toBeUndefined();
    expect(stepNumber('risk')).toBe(5);
    expect(stepNumber('results')).toBe(7);
  });

  it('Use this setting fills the method and returns to the flow; another file drops the comparison', () => {
    const used = reducer({ ...state, step: 'compare' }, { type: 'useCandidate', method: 'uniform-perturbation', drafts: state.drafts, comparison: { id: 'c1', chosen: 'x', candidates: 3 } });
    expect(used).toMatchObject({ method: 'uniform-perturbation', step: 'risk', comparison: { id: 'c1' } });
    const file = { path: '/data/other.csv', columns: [], rows: 1 } as unknown as NonNullable<WizardState['file']>;
    expect(reducer(used, { type: 'opened', file }).comparison).toBeUndefined();
  });
});
