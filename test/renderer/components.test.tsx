// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { OpenedFile } from '../../src/common/ipc/api.js';
import { buildJob, levelsChosenAfterPreview, levelsKey, stateFromJob } from '../../src/renderer/state/job.js';
import { suggestRole } from '../../src/common/job/role-suggestions.js';
import { betaRows } from '../../src/mechanisms/beta-privacy/browser/wizard.js';
import type { Drafts } from '../../src/mechanisms/browser-registry.js';
import type { MechanismType } from '../../src/mechanisms/definitions.js';
import { parameterProblems } from '../../src/renderer/state/validation.js';
import { plainFailure } from '../../src/renderer/components/plain-messages.js';
import { fitLabel } from '../../src/renderer/components/charts.js';
import { checkKey, hierarchyProblems, NO_HIERARCHY } from '../../src/renderer/components/recoding.js';
import { initialState, reducer, type WizardState } from '../../src/renderer/state/wizard-state.js';
import { ColumnsStep } from '../../src/renderer/steps/columns-step.js';
import { ParametersStep } from '../../src/renderer/steps/parameters-step.js';
import { SURVEY_FILE } from './survey-file.js';

afterEach(cleanup);

const file: OpenedFile = {
  ...SURVEY_FILE,
  columns: [
    { name: 'patient_id', type: 'text', distinct: 100, missing: 0, top: [] },
    { name: 'age', type: 'integer', distinct: 40, missing: 0, top: [{ value: '30', count: 5 }] },
    { name: 'diagnosis', type: 'text', distinct: 3, missing: 0, top: [{ value: 'flu', count: 60 }, { value: 'cold', count: 35 }, { value: 'HIV', count: 5 }] },
  ],
};

function withFile(patch: Partial<WizardState> = {}): WizardState {
  const opened = reducer(initialState, { type: 'opened', file });
  return { ...opened, roles: { ...opened.roles, diagnosis: 'sensitive' }, ...patch };
}

/** The file opened, with a mechanism chosen and its draft changed. */
function withDraft<T extends MechanismType>(method: T, patch: Partial<Drafts[T]>): WizardState {
  const state = withFile({ method });
  return reducer(state, { type: 'patchDraft', method, patch } as Parameters<typeof reducer>[1]);
}

describe('wizard state', () => {
  it('a job survives a save and reload, and names every column', () => {
    const state = withDraft('beta-privacy', { mode: 'values', defaultBeta: '0.7', overrides: { HIV: '1/10' } });
    const job = buildJob(state);
    // patient_id looks like a direct identifier: it starts dropped.
    expect(job.attributes).toEqual({ patient_id: 'identifier', age: 'quasi', diagnosis: 'sensitive' });
    expect(job.method).toMatchObject({ type: 'beta-privacy', beta: { default: '0.7', values: { HIV: '1/10' } } });
    const back = stateFromJob(JSON.parse(JSON.stringify(job)) as Record<string, unknown>);
    expect(buildJob({ ...back, file })).toEqual(job);
  });

  it('the run\'s progress bar never moves back when a stage starts at 0%', () => {
    const id = '00000000-0000-4000-8000-000000000001';
    let state = reducer(withFile(), { type: 'runStarted', id, at: 0 });
    const status = (stage: string, fraction: number) => ({ type: 'runStatus' as const, status: { id, state: 'running' as const, stage, fraction } });
    state = reducer(state, status('read', 1));
    const afterRead = state.run!.shown!;
    state = reducer(state, status('analyze', 0));
    expect(state.run!.shown).toBeGreaterThanOrEqual(afterRead);
    state = reducer(state, status('write', 0.5));
    expect(state.run!.shown).toBeGreaterThan(afterRead);
    expect(state.run!.startedAt).toBe(0);
  });

  it('a large file starts without the workbook (the slowest output); a small one keeps it', () => {
    expect(reducer(initialState, { type: 'opened', file: { ...file, rows: 1_000_000 } }).output.xlsx).toBe(false);
    expect(reducer(initialState, { type: 'opened', file }).output.xlsx).toBe(true);
    // A job being restored keeps its own outputs.
    expect(reducer(initialState, { type: 'opened', file: { ...file, rows: 1_000_000 }, fromJob: true }).output.xlsx).toBe(true);
  });

  it('a restored job keeps its release folder; a newly opened file gets a folder beside it', () => {
    const restored = { ...initialState, output: { ...initialState.output, dir: '/releases/adult-2026' } };
    expect(reducer(restored, { type: 'opened', file, fromJob: true }).output.dir).toBe('/releases/adult-2026');
    expect(reducer(restored, { type: 'opened', file }).output.dir).not.toBe('/releases/adult-2026');
  });

  it('a re-read of the open file keeps a path typed meanwhile; another file takes its own path; an SPSS or Stata input ticks its own format', () => {
    const opened = reducer(initialState, { type: 'opened', file });
    const typing = reducer(opened, { type: 'setInputPath', path: '/data/next.csv' });
    expect(reducer(typing, { type: 'opened', file }).inputPath).toBe('/data/next.csv');
    expect(reducer(typing, { type: 'opened', file: { ...file, path: '/data/other.csv' } }).inputPath).toBe('/data/other.csv');
    expect(reducer(initialState, { type: 'opened', file: { ...file, format: 'sav' } }).output).toMatchObject({ sav: true, dta: false });
    expect(reducer(initialState, { type: 'opened', file: { ...file, format: 'dta' } }).output).toMatchObject({ sav: false, dta: true });
    expect(reducer(initialState, { type: 'opened', file }).output).toMatchObject({ sav: false, dta: false, parquet: false });
    expect(reducer(initialState, { type: 'opened', file: { ...file, format: 'parquet' } }).output).toMatchObject({ parquet: true });
  });

  it('the last parameter change can be undone, a setting and a hierarchy alike', () => {
    const start = withFile();
    const changed = reducer(start, { type: 'patchDraft', method: 'reconstruction-privacy', patch: { retention: 0.2 } });
    expect(changed.drafts['reconstruction-privacy'].retention).toBe(0.2);
    const undone = reducer(changed, { type: 'undo' });
    expect(undone.drafts['reconstruction-privacy'].retention).toBe(start.drafts['reconstruction-privacy'].retention);
    expect(undone.undo).toBeUndefined();
    const recoded = reducer(undone, { type: 'setHierarchy', column: 'age', patch: { kind: 'interval', level: 1 } });
    expect(Object.keys(reducer(recoded, { type: 'undo' }).hierarchies)).toEqual([]);
    // The buttons are the app's undo bar now (test/renderer/undo-bar.test.tsx): many steps back, named.
  });

  it('CSV options reach the job and come back from it', () => {
    const state = reducer(withFile(), { type: 'patchOutput', patch: { csvDelimiter: ';', csvEncoding: 'windows-1252', csvLineEnding: 'lf' } });
    const job = buildJob(state);
    expect(job.output).toMatchObject({ delimiter: ';', csv: { encoding: 'windows-1252', lineEnding: 'lf' } });
    expect(stateFromJob(JSON.parse(JSON.stringify(job))).output).toMatchObject({ csvDelimiter: ';', csvEncoding: 'windows-1252', csvLineEnding: 'lf' });
  });

  it('opening a file proposes an output folder beside it, named after it and the method, and keeps earlier roles', () => {
    const state = withFile();
    expect(state.output).toMatchObject({ dir: `/data/survey-${state.method}-release`, dirAuto: true });
    // The folder the wizard named follows the method; one the person typed stays.
    expect(reducer(state, { type: 'setMethod', method: 'beta-privacy' }).output.dir).toBe('/data/survey-beta-privacy-release');
    const typed = reducer(state, { type: 'patchOutput', patch: { dir: '/out/mine', dirAuto: false } });
    expect(reducer(typed, { type: 'setMethod', method: 'beta-privacy' }).output.dir).toBe('/out/mine');
    expect(reducer(state, { type: 'opened', file }).roles['diagnosis']).toBe('sensitive');
  });

  it('suggests roles with a reason, never silently', () => {
    expect(suggestRole(file.columns[0]!, 100)).toEqual({ role: 'identifier', reason: 'the name looks like a direct identifier' });
    expect(suggestRole(file.columns[2]!, 100)?.role).toBe('sensitive');
    expect(suggestRole(file.columns[1]!, 100)).toMatchObject({ role: 'quasi' });
    // From the data, whatever the name: record numbers, dates of birth, ZIP-like codes, measurements.
    const col = (name: string, type: string, distinct: number, top: string[] = []) => ({ name, type, distinct, missing: 0, top: top.map((value) => ({ value, count: 1 })) });
    expect(suggestRole(col('ref', 'integer', 1000), 1000)).toMatchObject({ role: 'identifier', reason: expect.stringMatching(/1,000 values in 1,000 records/) });
    expect(suggestRole(col('d1', 'date', 990), 1000)).toMatchObject({ role: 'quasi', reason: expect.stringMatching(/99% of the records have a date of their own/) });
    expect(suggestRole(col('d2', 'date', 12), 1000)?.role).toBe('quasi');
    expect(suggestRole(col('area', 'text', 40, ['01234', '10115', '80331']), 1000)).toMatchObject({ role: 'quasi', reason: expect.stringMatching(/leading zeros/) });
    expect(suggestRole(col('weight', 'decimal', 1000), 1000)).toBeUndefined();
    expect(suggestRole(col('colour', 'text', 5, ['red', 'blue']), 1000)).toBeUndefined();
  });

  it('free text, e-mail addresses and names are removed whatever the column is called; full dates and postcodes are recoded', () => {
    const col = (name: string, type: string, distinct: number, top: string[] = []) => ({ name, type, distinct, missing: 0, top: top.map((value) => ({ value, count: 1 })) });
    const comments = ['Suspicion VIH — confidentiel, revoir dans 3 mois', 'patient called after the fall at home on Monday', 'daughter reports pain since the operation last week', 'allergy to penicillin noted by the night nurse', 'follow-up needed with the cardiologist in June'];
    // A free-text comment is never a quasi-identifier (nor sensitive because of its name).
    expect(suggestRole(col('diagnosis_comment', 'text', 800, comments), 1000)).toMatchObject({ role: 'identifier', reason: expect.stringMatching(/^free text: .*a direct identifier, removed from the release$/) });
    expect(suggestRole(col('contact', 'text', 990, ['a@b.org', 'c@d.org', 'e@f.org']), 1000)).toMatchObject({ role: 'identifier', reason: expect.stringMatching(/e-mail addresses/) });
    expect(suggestRole(col('birth', 'text', 900, ['01.02.1950', '03.04.1961', '05.06.1972']), 1000)).toMatchObject({ role: 'quasi', reason: expect.stringMatching(/full dates of birth .*recode to the year or coarser/) });
    expect(suggestRole(col('postcode', 'text', 300, ['01234', '10115', '80331']), 1000)).toMatchObject({ role: 'quasi', reason: expect.stringMatching(/full postcodes .*first three characters/), recode: { to: 'the first three characters or coarser', hierarchy: { type: 'masking', length: 5 } } });
    expect(suggestRole(col('birth', 'text', 900, ['01.02.1950', '03.04.1961', '05.06.1972']), 1000)?.recode).toEqual({ to: 'the year or coarser', hierarchy: { type: 'date' } });
    // A year and month is coarser than a date but finer than the year Safe Harbor keeps; no hierarchy of the job's own kinds reads it.
    expect(suggestRole(col('birth_month', 'text', 300, ['1950-02', '1961-04', '1972-06']), 1000)).toEqual({ role: 'quasi', reason: expect.stringMatching(/^years and months of birth .*Safe Harbor releases the year only; recode to the year or coarser \(a hierarchy file: value, year\)$/), recode: { to: 'the year or coarser' } });
    // Postcodes recoded already ("0123*") need nothing more.
    expect(suggestRole(col('postcode', 'text', 300, ['0123*', '1011*', '8033*']), 1000)?.recode).toBeUndefined();
  });

  it('validates parameters exactly: β against f, ε against ε_max, the ρ helper', () => {
    // f = 29/100 and β = 0.29 are equal: exact arithmetic calls it feasible, 0.29·100 in floating point (28.999…) would not.
    const edge = { ...file.columns[2]!, top: [{ value: 'flu', count: 29 }] };
    expect(betaRows({ ...initialState.drafts['beta-privacy'], mode: 'values', defaultBeta: '0.29' }, edge, 100)[0]!.problem).toBeUndefined();
    expect(betaRows({ ...initialState.drafts['beta-privacy'], mode: 'values', defaultBeta: '0.2899' }, edge, 100)[0]!).toMatchObject({ problem: expect.stringMatching(/at least f = 0\.2900$/), exact: '29/100' });
    const beta = withDraft('beta-privacy', { mode: 'values', defaultBeta: '0.6', overrides: { HIV: '0.04' } });
    const rows = betaRows(beta.drafts['beta-privacy'], file.columns[2]!, 100);
    expect(rows.find((r) => r.value === 'HIV')).toMatchObject({ problem: 'infeasible: β must be at least f = 0.0500', exact: '5/100' });
    expect(rows.find((r) => r.value === 'flu')!.problem).toBeUndefined();
    expect(parameterProblems(beta, file)['beta']).toMatch(/HIV/);
    const rp = withDraft('reconstruction-privacy', { retention: 0.5, epsilon: 1.5 });
    expect(parameterProblems(rp, file)['epsilon']).toMatch(/at most 1\.3333/);
  });

  it('a domain is a decision: none chosen blocks the run; ε_max and the ρ helper use the declared domain\'s m, not the file\'s distinct count', () => {
    for (const method of ['uniform-perturbation', 'reconstruction-privacy', 'beta-privacy'] as const) {
      expect(parameterProblems(withDraft(method, { domains: {} }), file)['domain.diagnosis'], method).toMatch(/decide the domain: list the public values, or choose “from-data”/);
      expect(parameterProblems(withDraft(method, { domains: { diagnosis: 'from-data' } }), file)['domain.diagnosis'], method).toBeUndefined();
    }
    // m = 3 (the file): ε_max = 1 + (1/2)/(3·1/2) = 1.3333; a declared domain of 6 values: 1 + (1/2)/(6·1/2) = 1.1667.
    const declared = { diagnosis: 'flu, cold, HIV, measles, mumps, rubella' };
    expect(parameterProblems(withDraft('reconstruction-privacy', { retention: 0.5, epsilon: 1.2, domains: declared }), file)['epsilon']).toMatch(/at most 1\.1667 for “diagnosis”/);
    expect(parameterProblems(withDraft('reconstruction-privacy', { retention: 0.5, epsilon: 1.2, domains: { diagnosis: 'flu, cold, HIV' } }), file)['epsilon']).toBeUndefined();
    expect(parameterProblems(withDraft('uniform-perturbation', { mode: 'retention', retention: 0.5, epsilon: 1.2, domains: declared }), file)['epsilon']).toMatch(/at most 1\.1667/);
  });

  it('says a percentage field is out of range in percent, not as the job share in [0, 1]', () => {
    const over = withDraft('global-recoding', { suppressionPercent: 150 });
    expect(parameterProblems(over, file)['suppressionLimit']).toBe('the suppression limit is a percentage from 0 to 100');
    expect(parameterProblems(withDraft('global-recoding', { suppressionPercent: -1 }), file)['suppressionLimit']).toBe('the suppression limit is a percentage from 0 to 100');
    expect(parameterProblems(withDraft('global-recoding', { suppressionPercent: 100 }), file)['suppressionLimit']).toBeUndefined();
  });
});

describe('steps', () => {
  it('the hierarchy table checks values where they are typed: codes of the wrong length, a file\'s check, stale checks ignored', () => {
    const zip = { name: 'zip', type: 'text', distinct: 3, missing: 0, top: [{ value: '01234', count: 5 }, { value: '1234', count: 3 }, { value: '99999', count: 2 }] };
    const roles = { zip: 'quasi' as const };
    const masking = { zip: { ...NO_HIERARCHY, kind: 'masking' as const, length: 5, level: 1 } };
    expect(hierarchyProblems(masking, roles, false, { columns: [zip] })['hierarchy.zip']).toMatch(/1 value of “zip” cannot be masked as codes of 5 characters: “1234”/);
    const file = { zip: { ...NO_HIERARCHY, kind: 'file' as const, file: 'zip.csv', level: 3 } };
    const checked = (key: string) => ({ zip: { key, levels: 2, unmapped: [], unmappedCount: 0 } });
    expect(hierarchyProblems(file, roles, false, { fileId: 'f', files: checked(checkKey('f', 'zip.csv')) })['hierarchy.zip']).toBe('“zip” has only 2 levels in this file');
    expect(hierarchyProblems(file, roles, false, { fileId: 'f', files: checked(checkKey('f', 'other.csv')) })['hierarchy.zip']).toBeUndefined();
    expect(hierarchyProblems(file, roles, false, { fileId: 'f', files: { zip: { key: checkKey('f', 'zip.csv'), failure: 'zip.csv: the file does not exist' } } })['hierarchy.zip']).toBe('zip.csv: the file does not exist');
  });

  it('chart labels fit their room; the whole label stays for hover and screen readers', () => {
    expect(fitLabel('plain randomized response', 178)).toBe('plain randomized response');
    const long = 'Married-spouse-absent in a very long category name';
    expect(fitLabel(long, 158)).toBe(`${long.slice(0, 22)}…`);
    expect(fitLabel(long, 158).length * 6.6).toBeLessThanOrEqual(158);
  });

  it('host failures name the field in words, not the job key', () => {
    expect(plainFailure({ message: 'method.hierarchies.age: cannot open the hierarchy: the file does not exist', key: 'method.hierarchies.age' })).toBe('The hierarchy of “age”: cannot open the hierarchy: the file does not exist.');
    expect(plainFailure({ message: '--out: the folder holds files Custos did not write', key: '--out' })).toBe('The release folder: the folder holds files Custos did not write.');
    expect(plainFailure({ message: 'method.epsilon: ε = 3 is outside the valid range', key: 'method.epsilon' })).toMatch(/^ε: ε = 3/);
    // Shown alone, a clause ends as a sentence; one that ends already is left as it is.
    expect(plainFailure({ message: 'no key here' })).toBe('no key here.');
    expect(plainFailure({ message: 'stopped (line 3)' })).toBe('stopped (line 3)');
  });

  it('Parameters (randomized response): the ρ1–ρ2 helper shows the exact largest retention, (γ−1)/(m−1+γ)', () => {
    // ρ1 = 0.1, ρ2 = 0.5: γ = 9; diagnosis has m = 3 values, so p = 8/11 = 0.7273.
    render(<ParametersStep file={file} state={withDraft('uniform-perturbation', { rho1: 0.1, rho2: 0.5 })} dispatch={() => undefined} />);
    expect(screen.getByText('0.7273')).toBeTruthy();
  });

  it('global recoding: local suppression offers k and a labelled importance per quasi-identifier; a journalist asks for the population', () => {
    const actions: unknown[] = [];
    render(<ParametersStep file={file} state={withDraft('global-recoding', { localSuppression: true, model: 'maximum-risk', attacker: 'journalist', populationKind: 'size' })} dispatch={(a) => actions.push(a)} />);
    expect(screen.getByLabelText('k of local suppression')).toBeTruthy();
    expect(screen.getByLabelText('Population size')).toBeTruthy();
    // age is a quasi-identifier (diagnosis is sensitive): its weight goes into the importance list.
    fireEvent.change(screen.getByLabelText('Importance of age'), { target: { value: '3' } });
    expect(actions).toContainEqual(expect.objectContaining({ type: 'patchDraft', method: 'global-recoding', patch: { lsImportance: [{ column: 'age', weight: 3 }] } }));
    expect(screen.getByRole('option', { name: 'none: local suppression alone' })).toBeTruthy();
  });

  it('Columns: a column that looks like an identifier starts dropped and is named; roles change through the select; other suggestions apply on request only', () => {
    const opened = reducer(initialState, { type: 'opened', file });
    expect(opened.roles).toEqual({ patient_id: 'identifier', age: 'quasi', diagnosis: 'quasi' });
    // A role chosen before survives a re-read of the same columns.
    expect(reducer({ ...opened, roles: { ...opened.roles, patient_id: 'quasi' } }, { type: 'opened', file }).roles['patient_id']).toBe('quasi');
    const actions: unknown[] = [];
    render(<ColumnsStep file={file} state={opened} dispatch={(a) => actions.push(a)} />);
    expect(screen.getByText(/1 column looks like a direct identifier and is dropped/)).toBeTruthy();
    expect(screen.getByText(/“patient_id” \(the name looks like a direct identifier\)/)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Role of age'), { target: { value: 'insensitive' } });
    expect(actions).toContainEqual({ type: 'setRole', column: 'age', role: 'insensitive' });
    expect(actions).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Apply all suggestions' }));
    expect(actions[1]).toEqual({ type: 'setRoles', roles: { diagnosis: 'sensitive' } });
  });

  it('Columns: a sensitive column with missing values asks how to treat them, and the job says so', () => {
    const withGaps: OpenedFile = { ...file, columns: file.columns.map((c) => (c.name === 'diagnosis' ? { ...c, missing: 7 } : c)) };
    const actions: unknown[] = [];
    const state = { ...withFile(), file: withGaps };
    render(<ColumnsStep file={withGaps} state={state} dispatch={(a) => actions.push(a)} />);
    expect(screen.getByText(/“diagnosis” has 7 missing values/)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Missing sensitive values'), { target: { value: 'exclude' } });
    expect(actions).toContainEqual({ type: 'setMissingSensitive', missingSensitive: 'exclude' });
    expect(buildJob(state).input.missingSensitive).toBe('category');
    expect(buildJob(reducer(state, { type: 'setMissingSensitive', missingSensitive: 'exclude' })).input.missingSensitive).toBe('exclude');
  });

  it('Parameters (randomized response): the ρ helper takes m from the declared domain', () => {
    // ρ1 = 0.1, ρ2 = 0.5: γ = 9; a declared domain of 6 values: p = 8/14 = 0.5714 (the file's 3 values would give 0.7273).
    render(<ParametersStep file={file} state={withDraft('uniform-perturbation', { rho1: 0.1, rho2: 0.5, domains: { diagnosis: 'flu, cold, HIV, measles, mumps, rubella' } })} dispatch={() => undefined} />);
    expect(screen.getByText('0.5714')).toBeTruthy();
    expect(screen.queryByText('0.7273')).toBeNull();
  });

  it('Parameters: a sensitive column without a domain gets the file\'s values proposed in the field, to review (the declared form, as custos init writes it)', () => {
    for (const method of ['uniform-perturbation', 'reconstruction-privacy', 'beta-privacy'] as const) {
      const actions: unknown[] = [];
      render(<ParametersStep file={file} state={withDraft(method, { domains: {} })} dispatch={(a) => actions.push(a)} />);
      expect(actions, method).toContainEqual({ type: 'patchDraft', method, patch: { domains: expect.objectContaining({ diagnosis: 'HIV, cold, flu' }) } });
      cleanup();
    }
    // A decision already made is left alone.
    const actions: unknown[] = [];
    render(<ParametersStep file={file} state={withDraft('uniform-perturbation', { domains: { diagnosis: 'from-data' } })} dispatch={(a) => actions.push(a)} />);
    expect(actions.filter((a) => (a as { type: string }).type === 'patchDraft')).toEqual([]);
  });

  it('Parameters (β): an infeasible value is flagged inline', () => {
    const state = withDraft('beta-privacy', { mode: 'values', defaultBeta: '0.5' });
    render(<ParametersStep file={file} state={state} dispatch={() => undefined} />);
    expect(screen.getByText(/infeasible: β must be at least f = 0\.6000/).getAttribute('title')).toBe('f = 60/100 exactly');
    expect(screen.getAllByText('feasible')).toHaveLength(2);
  });

  it('Parameters (reconstruction privacy): an ε above the valid range is shown at the field', () => {
    render(<ParametersStep file={file} state={withDraft('reconstruction-privacy', { epsilon: 3 })} dispatch={() => undefined} />);
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
    const searching = reducer(changed, { type: 'patchDraft', method: 'safe-k-anonymity', patch: { search: true } });
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
