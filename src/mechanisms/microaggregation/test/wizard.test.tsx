// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { OpenedFile } from '../../../common/ipc/api.js';
import { buildJob } from '../../../renderer/state/job.js';
import { parameterProblems } from '../../../renderer/state/validation.js';
import { initialState, reducer, type WizardState } from '../../../renderer/state/wizard-state.js';
import { ParametersStep } from '../../../renderer/steps/parameters-step.js';
import type { MicroaggregationDraft } from '../browser/wizard.js';
import { SURVEY_FILE } from '../../../../test/renderer/survey-file.js';

afterEach(cleanup);

const file: OpenedFile = {
  ...SURVEY_FILE,
  columns: [
    { name: 'person_id', type: 'integer', distinct: 100, missing: 0, top: [] },
    { name: 'age', type: 'integer', distinct: 40, missing: 0, top: [{ value: '30', count: 5 }] },
    { name: 'hours', type: 'decimal', distinct: 60, missing: 3, top: [{ value: '40', count: 30 }] },
    { name: 'sex', type: 'text', distinct: 2, missing: 0, top: [{ value: 'F', count: 50 }, { value: 'M', count: 50 }] },
  ],
};

function state(patch: Partial<MicroaggregationDraft>): WizardState {
  const opened = reducer(initialState, { type: 'opened', file });
  const chosen = { ...opened, roles: { ...opened.roles, person_id: 'identifier' as const }, method: 'microaggregation' as const };
  return reducer(chosen, { type: 'patchDraft', method: 'microaggregation', patch });
}

describe('the wizard form of microaggregation', () => {
  it('offers the numeric columns that are not identifiers, each a labelled checkbox, and k as a labelled number', () => {
    const actions: unknown[] = [];
    render(<ParametersStep file={file} state={state({ columns: ['age'] })} dispatch={(a) => actions.push(a)} />);
    const boxes = screen.getAllByRole('checkbox').map((b) => b.parentElement!.textContent);
    expect(boxes.some((t) => t?.startsWith('age'))).toBe(true);
    expect(boxes.some((t) => t?.startsWith('hours'))).toBe(true);
    expect(boxes.some((t) => t?.startsWith('sex') || t?.startsWith('person_id'))).toBe(false);
    fireEvent.click(screen.getByRole('checkbox', { name: /^hours/ }));
    expect(actions).toContainEqual({ type: 'patchDraft', method: 'microaggregation', patch: { columns: ['age', 'hours'] } });
    expect(screen.getByRole('spinbutton', { name: 'k (least group size)' })).toBeTruthy();
    expect(screen.getByRole('combobox', { name: 'Released value of a group' })).toBeTruthy();
    // hours and sex are quasi-identifiers (the default role) left unchanged: the form says what that means.
    expect(screen.getByText(/hours, sex are quasi-identifiers released unchanged: the release is k-anonymous on the aggregated columns only/)).toBeTruthy();
  });

  it('builds the job method as a list of columns and flags what the run would refuse', () => {
    expect(buildJob(state({ columns: ['age'], k: 4 })).method).toEqual({ type: 'microaggregation', columns: ['age'], k: 4, aggregation: 'mean', decimals: 2 });
    expect(parameterProblems(state({ columns: [] }), file)['columns']).toMatch(/at least one/);
    expect(parameterProblems(state({ columns: ['hours'] }), file)['columns']).toMatch(/hours has missing values/);
    expect(parameterProblems(state({ columns: ['sex'] }), file)['columns']).toMatch(/not a numeric column/);
    expect(parameterProblems(state({ columns: ['age'], k: 1 }), file)['k']).toMatch(/at least 2/);
    expect(parameterProblems(state({ columns: ['age'], k: 5 }), file)).toEqual({});
  });
});
