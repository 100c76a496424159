// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { CustosApi, OpenedFile, Report } from '../../src/common/ipc/api.js';
import type { CompareStatus } from '../../src/common/ipc/compare-api.js';
import { withoutHelp } from '../../src/common/job/job-notes.js';
import { named } from '../../src/common/job/names.js';
import { parseJob } from '../../src/jobs/load-job.js';
import type { Drafts } from '../../src/mechanisms/browser-registry.js';
import type { MechanismType } from '../../src/mechanisms/definitions.js';
import { blockedReason } from '../../src/renderer/app.js';
import { buildCandidates, initialFamilies } from '../../src/renderer/state/compare-candidates.js';
import { buildJob, changedOnSave, stateFromJob } from '../../src/renderer/state/job.js';
import { initialState, reducer, type Action, type WizardState } from '../../src/renderer/state/wizard-state.js';
import { CompareStep, type CompareView } from '../../src/renderer/steps/compare-step.js';
import { ParametersStep } from '../../src/renderer/steps/parameters-step.js';
import { SURVEY_FILE } from './survey-file.js';

afterEach(cleanup);

const file: OpenedFile = {
  ...SURVEY_FILE,
  columns: [
    { name: 'age', type: 'integer', distinct: 40, missing: 0, top: [{ value: '30', count: 5 }] },
    { name: 'sex', type: 'text', distinct: 2, missing: 0, top: [{ value: 'f', count: 50 }, { value: 'm', count: 50 }] },
    { name: 'diagnosis', type: 'text', distinct: 3, missing: 0, top: [{ value: 'flu', count: 60 }, { value: 'cold', count: 35 }, { value: 'HIV', count: 5 }] },
    { name: 'income', type: 'integer', distinct: 50, missing: 0, top: [{ value: '1000', count: 2 }] },
  ],
};

function withDraft<T extends MechanismType>(method: T, patch: Partial<Drafts[T]>): WizardState {
  const opened = reducer(initialState, { type: 'opened', file });
  const state = { ...opened, roles: named<WizardState['roles'][string]>([['age', 'quasi'], ['sex', 'quasi'], ['diagnosis', 'sensitive'], ['income', 'insensitive']]), method };
  return reducer(state, { type: 'patchDraft', method, patch } as Action);
}

describe('global recoding\'s hierarchy table lists the columns it recodes', () => {
  const rows = () => within(screen.getByRole('table', { name: 'Generalization per column' })).getAllByRole('rowheader').map((r) => r.textContent);

  it('the quasi-identifiers only; the sensitive column too when t-closeness measures along its hierarchy', () => {
    render(<ParametersStep file={file} state={withDraft('global-recoding', {})} dispatch={() => undefined} />);
    expect(rows()).toEqual(['age', 'sex']);
    cleanup();
    render(<ParametersStep file={file} state={withDraft('global-recoding', { model: 't-closeness', distance: 'hierarchical' })} dispatch={() => undefined} />);
    expect(rows()).toEqual(['age', 'sex', 'diagnosis']);
  });

  it('a hierarchy left on a column it does not recode is not kept hidden in the job', () => {
    let state = withDraft('global-recoding', {});
    state = reducer(state, { type: 'setHierarchy', column: 'income', patch: { kind: 'rounding', bases: '10', level: 1 } });
    state = reducer(state, { type: 'setHierarchy', column: 'age', patch: { kind: 'rounding', bases: '5', level: 1 } });
    expect(Object.keys((buildJob(state).method as { hierarchies: object }).hierarchies)).toEqual(['age']);
  });
});

describe('notes in a job file are ignored quietly, wherever a job is loaded', () => {
  const written = {
    _help: ['A job written by custos init'],
    _comment: 'checked by A. on Monday',
    version: 1,
    input: { path: 'survey.csv', _help: 'how the file is read' },
    attributes: { age: 'quasi', _code: 'sensitive' },
    method: { type: 'beta-privacy', _help: 'β of each value', beta: { coefficient: 8 }, domains: { _code: ['a', 'b'] } },
    output: { dir: 'release', _note: 'publish this folder', csv: { _help: 'as Excel reads it' } },
  };

  it('the wizard loads it with nothing it "cannot show", and the names from the data keep their underscores', () => {
    const state = stateFromJob(written);
    expect(changedOnSave(written, state)).toEqual([]);
    expect(state.roles['_code']).toBe('sensitive');
    expect(JSON.stringify(buildJob(state))).not.toMatch(/_help|_comment|_note/);
  });

  it('the command line loads it too, and the written object is left as it was', () => {
    const before = JSON.stringify(written);
    expect(parseJob(written, '/tmp').job.method.type).toBe('beta-privacy');
    expect(withoutHelp(written)).toMatchObject({ attributes: { _code: 'sensitive' }, method: { domains: { _code: ['a', 'b'] } } });
    expect(JSON.stringify(written)).toBe(before);
  });
});

describe('Next waits for the work in progress', () => {
  const ready = withDraft('uniform-perturbation', { domains: named([['diagnosis', 'flu, cold, HIV']]) });

  it('"Next: Run" on the Risk step waits for the preview of the job as it stands', () => {
    const onRisk = { ...ready, step: 'risk' as const };
    const job = JSON.stringify(buildJob(onRisk));
    expect(blockedReason(onRisk, 'run', undefined, job)).toBeUndefined();
    expect(blockedReason(onRisk, 'run', undefined, undefined)).toBe('wait for the risk preview to finish');
    // A preview of the job before the last change is no preview of this one.
    const changed = reducer(onRisk, { type: 'patchDraft', method: 'uniform-perturbation', patch: { retention: 0.6 } } as Action);
    expect(blockedReason(changed, 'run', undefined, job)).toBe('wait for the risk preview to finish');
  });

  it('"Next: Results" waits while a run runs, even with the previous run\'s report at hand', () => {
    const report = {} as Report;
    const running = { ...ready, step: 'run' as const, report, run: { id: 'r2', status: { id: 'r2', state: 'running' as const, fraction: 0.3 } } };
    expect(blockedReason(running, 'results')).toBe('wait for the run to finish');
    const done = { ...running, run: { id: 'r2', status: { id: 'r2', state: 'done' as const, fraction: 1 } } };
    expect(blockedReason(done, 'results')).toBeUndefined();
  });
});

describe('"Use this setting" in Compare', () => {
  it('keeps β-privacy\'s per-value thresholds when the chosen candidate sets a coefficient', async () => {
    const state = withDraft('beta-privacy', { mode: 'values', defaultBeta: '0.7', overrides: named([['HIV', '1/10']]), domains: named([['diagnosis', 'flu, cold, HIV']]) });
    const families = initialFamilies('beta-privacy').map((f) => (f.method === 'beta-privacy' ? { ...f, values: '12' } : { ...f, included: false }));
    const candidates = buildCandidates(state, families, false);
    expect(candidates.map((c) => c.label)).toEqual(['β-privacy buckets, β coefficient 12']);
    const compared = { id: 1, label: candidates[0]!.label, job: '(built in the app)', grid: [], method: { type: 'beta-privacy', title: 'β-privacy' }, parameters: 'c 12', guarantee: { label: 'β', statement: 'x', holds: true }, risk: { share: 0.1, measure: 'm' }, utility: { relativeError: 0.01, estimator: 'x' }, releasedRecords: 100, frontier: true };
    const comparison = { schema: 'custos.comparison/1' as const, confidential: 'CONFIDENTIAL', createdAt: '2026-01-01T00:00:00Z', software: { name: 'custos' as const, version: '1', node: 'v20', platform: 'linux-x64' }, testRandomness: false, input: { path: '/data/survey.csv', sha256: 'a'.repeat(64), rows: 100 }, pool: { description: 'd', columns: ['age'], queries: 10, requested: 10, attempts: 10, minAnswer: 1 }, candidates: [compared], skipped: [], notes: [], seconds: 1 };
    const status: CompareStatus = { id: 'c1', state: 'done', fraction: 1, comparison };
    const view: CompareView = { families, includeCurrent: false, candidates, csvPath: '/data/c.csv', status };
    const actions: Action[] = [];
    render(<CompareStep api={{} as CustosApi} state={{ ...state, step: 'compare' }} dispatch={(a) => actions.push(a)} desktop={false} view={view} setView={() => undefined} />);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: /^Use this setting/ })));
    const used = actions.find((a): a is Extract<Action, { type: 'useCandidate' }> => a.type === 'useCandidate');
    const beta = used!.drafts['beta-privacy'];
    expect(beta.mode).toBe('coefficient');
    expect(beta.coefficient).toBe(12);
    expect({ ...beta.overrides }).toEqual({ HIV: '1/10' });
    expect(beta.defaultBeta).toBe('0.7');
  });
});

describe('the β table', () => {
  it('lists the declared domain\'s values, a value no record holds among them, when a domain is declared', () => {
    const state = withDraft('beta-privacy', { mode: 'values', defaultBeta: '0.7', domains: named([['diagnosis', 'flu, cold, HIV, measles']]) });
    render(<ParametersStep file={file} state={state} dispatch={() => undefined} />);
    const table = screen.getByRole('table', { name: /Values of “diagnosis”/ });
    expect(within(table).getAllByRole('rowheader').map((r) => r.textContent)).toEqual(['flu', 'cold', 'HIV', 'measles']);
    expect(within(table).getByRole('textbox', { name: 'β for measles' })).toBeTruthy();
    cleanup();
    // Without a declared list: the file's values.
    render(<ParametersStep file={file} state={withDraft('beta-privacy', { mode: 'values', domains: named([['diagnosis', 'from-data']]) })} dispatch={() => undefined} />);
    expect(within(screen.getByRole('table', { name: /Values of “diagnosis”/ })).getAllByRole('rowheader').map((r) => r.textContent)).toEqual(['flu', 'cold', 'HIV']);
  });
});
