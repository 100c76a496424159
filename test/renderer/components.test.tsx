// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { OpenedFile } from '../../src/common/ipc/api.js';
import { buildJob, levelsChosenAfterPreview, levelsKey, stateFromJob } from '../../src/renderer/state/job.js';
import { suggestRole } from '../../src/renderer/state/suggestions.js';
import { betaRows, maxRetention, parameterProblems, parseExact } from '../../src/renderer/state/validation.js';
import { initialState, reducer, type WizardState } from '../../src/renderer/state/wizard-state.js';
import { ColumnsStep } from '../../src/renderer/steps/columns-step.js';
import { ParametersStep } from '../../src/renderer/steps/parameters-step.js';

afterEach(cleanup);

const file: OpenedFile = {
  fileId: '00000000-0000-4000-8000-000000000000',
  path: '/data/survey.csv',
  name: 'survey.csv',
  rows: 100,
  bytes: 1000,
  sha256: 'a'.repeat(64),
  format: 'csv',
  columns: [
    { name: 'patient_id', type: 'text', distinct: 100, missing: 0, top: [] },
    { name: 'age', type: 'integer', distinct: 40, missing: 0, top: [{ value: '30', count: 5 }] },
    { name: 'diagnosis', type: 'text', distinct: 3, missing: 0, top: [{ value: 'flu', count: 60 }, { value: 'cold', count: 35 }, { value: 'HIV', count: 5 }] },
  ],
  rejected: [],
  rejectedCount: 0,
};

function withFile(patch: Partial<WizardState> = {}): WizardState {
  const opened = reducer(initialState, { type: 'opened', file });
  return { ...opened, roles: { ...opened.roles, diagnosis: 'sensitive' }, ...patch };
}

describe('wizard state', () => {
  it('a job survives a save and reload, and names every column', () => {
    const state = withFile({ method: 'beta-privacy', beta: { ...initialState.beta, mode: 'values', defaultBeta: '0.7', overrides: { HIV: '1/10' } } });
    const job = buildJob(state);
    expect(job['attributes']).toEqual({ patient_id: 'quasi', age: 'quasi', diagnosis: 'sensitive' });
    expect(job['method']).toMatchObject({ type: 'beta-privacy', beta: { default: '0.7', values: { HIV: '1/10' } } });
    const back = stateFromJob(JSON.parse(JSON.stringify(job)) as Record<string, unknown>);
    expect(buildJob({ ...back, file })).toEqual(job);
  });

  it('opening a file proposes an output folder beside it and keeps earlier roles', () => {
    const state = withFile();
    expect(state.output.dir).toBe('/data/survey-release');
    expect(reducer(state, { type: 'opened', file }).roles['diagnosis']).toBe('sensitive');
  });

  it('suggests roles with a reason, never silently', () => {
    expect(suggestRole(file.columns[0]!, 100)).toEqual({ role: 'identifier', reason: 'the name looks like a direct identifier' });
    expect(suggestRole(file.columns[2]!, 100)?.role).toBe('sensitive');
    expect(suggestRole(file.columns[1]!, 100)).toBeUndefined();
  });

  it('validates parameters exactly: β against f, ε against ε_max, the ρ helper', () => {
    expect(parseExact('1/20')).toEqual({ num: 1n, den: 20n });
    expect(parseExact('0.29')).toEqual({ num: 29n, den: 100n });
    expect(parseExact('abc')).toBeUndefined();
    const beta = withFile({ method: 'beta-privacy', beta: { ...initialState.beta, mode: 'values', defaultBeta: '0.6', overrides: { HIV: '0.04' } } });
    const rows = betaRows(beta, file.columns[2]!, 100);
    expect(rows.find((r) => r.value === 'HIV')!.problem).toMatch(/at least f = 5\/100/);
    expect(rows.find((r) => r.value === 'flu')!.problem).toBeUndefined();
    expect(parameterProblems(beta, file)['beta']).toMatch(/HIV/);
    const rp = withFile({ rp: { ...initialState.rp, retention: 0.5, epsilon: 1.5 } });
    expect(parameterProblems(rp, file)['epsilon']).toMatch(/at most 1\.3333/);
    expect(maxRetention(0.1, 0.5, 10)).toBeCloseTo(4 / 9, 12);
  });
});

describe('steps', () => {
  it('Columns: roles change through the select, suggestions apply on request only', () => {
    const actions: unknown[] = [];
    render(<ColumnsStep file={file} state={withFile()} dispatch={(a) => actions.push(a)} />);
    fireEvent.change(screen.getByLabelText('Role of age'), { target: { value: 'insensitive' } });
    expect(actions).toContainEqual({ type: 'setRole', column: 'age', role: 'insensitive' });
    expect(actions).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Apply all suggestions' }));
    expect(actions[1]).toEqual({ type: 'setRoles', roles: { patient_id: 'identifier' } });
  });

  it('Parameters (β): an infeasible value is flagged inline', () => {
    const state = withFile({ method: 'beta-privacy', beta: { ...initialState.beta, mode: 'values', defaultBeta: '0.5' } });
    render(<ParametersStep file={file} state={state} dispatch={() => undefined} />);
    expect(screen.getByText(/infeasible: β must be at least f = 60\/100/)).toBeTruthy();
    expect(screen.getAllByText('feasible')).toHaveLength(2);
  });

  it('Parameters (reconstruction privacy): an ε above the valid range is shown at the field', () => {
    render(<ParametersStep file={file} state={withFile({ rp: { ...initialState.rp, epsilon: 3 } })} dispatch={() => undefined} />);
    const field = screen.getByRole('spinbutton', { name: 'ε (relative error)' });
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText(/at most 1\.3333 for “diagnosis”/)).toBeTruthy();
  });
});

describe('fixed levels changed after a risk preview of the same file', () => {
  it('warn on the Parameters step and recommend the private search; the search or an unchanged setting do not', () => {
    let state = withFile({ method: 'safe-k-anonymity' });
    state = reducer(state, { type: 'setHierarchy', column: 'age', patch: { kind: 'interval', widths: '10', level: 1 } });
    const previewed = reducer(state, { type: 'previewed', path: file.path, levels: levelsKey(state) });
    expect(levelsChosenAfterPreview(previewed)).toBe(false);
    const changed = reducer(previewed, { type: 'setHierarchy', column: 'age', patch: { level: 2 } });
    expect(levelsChosenAfterPreview(changed)).toBe(true);
    // Previewing the changed levels again does not make them unchosen.
    expect(levelsChosenAfterPreview(reducer(changed, { type: 'previewed', path: file.path, levels: levelsKey(changed) }))).toBe(true);
    render(<ParametersStep file={file} state={changed} dispatch={() => undefined} />);
    expect(screen.getByText(/changed after a risk preview of this file/)).toBeTruthy();
    expect(screen.getByText(/not covered by the differential-privacy guarantee/)).toBeTruthy();
    cleanup();
    const searching = reducer(changed, { type: 'patch', section: 'kanon', patch: { search: true } });
    expect(levelsChosenAfterPreview(searching)).toBe(false);
    render(<ParametersStep file={file} state={previewed} dispatch={() => undefined} />);
    expect(screen.queryByText(/changed after a risk preview/)).toBeNull();
  });
});

describe('hierarchy files on the desktop', () => {
  it('are chosen with the open dialog (which grants them), not only typed', async () => {
    let state = withFile({ method: 'safe-k-anonymity' });
    state = reducer(state, { type: 'setHierarchy', column: 'age', patch: { kind: 'file', level: 1 } });
    const actions: unknown[] = [];
    render(<ParametersStep file={file} state={state} dispatch={(a) => actions.push(a)} chooseFile={async () => '/data/age-hierarchy.csv'} />);
    fireEvent.click(screen.getByRole('button', { name: /Choose… the hierarchy file of age/ }));
    await new Promise((r) => setTimeout(r, 0));
    expect(actions).toContainEqual({ type: 'setHierarchy', column: 'age', patch: { file: '/data/age-hierarchy.csv' } });
    cleanup();
    render(<ParametersStep file={file} state={state} dispatch={() => undefined} />);
    expect(screen.queryByRole('button', { name: /Choose… the hierarchy file/ })).toBeNull();
  });
});
