// @vitest-environment happy-dom
/**
 * The global-recoding form's fields of issue 36: the Loss's generalization/suppression factor and
 * attribute weights, the sensitive column of a model when several are marked, and δ-presence with
 * its research subset. Each says its direction in words and shows the job schema's own refusal.
 */
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { OpenedFile } from '../../src/common/ipc/api.js';
import type { GlobalRecodingDraft } from '../../src/mechanisms/global-recoding/browser/wizard.js';
import { initialState, reducer, type WizardState } from '../../src/renderer/state/wizard-state.js';
import { ParametersStep } from '../../src/renderer/steps/parameters-step.js';
import { SURVEY_FILE } from './survey-file.js';

afterEach(cleanup);

const file: OpenedFile = {
  ...SURVEY_FILE,
  columns: [
    { name: 'age', type: 'integer', distinct: 40, missing: 0, top: [{ value: '30', count: 5 }] },
    { name: 'diagnosis', type: 'text', distinct: 3, missing: 0, top: [{ value: 'flu', count: 60 }, { value: 'cold', count: 35 }, { value: 'HIV', count: 5 }] },
    { name: 'income', type: 'integer', distinct: 30, missing: 0, top: [{ value: '1000', count: 5 }] },
    { name: 'in_study', type: 'text', distinct: 2, missing: 0, top: [{ value: 'yes', count: 10 }, { value: 'no', count: 90 }] },
  ],
};

function stateWith(patch: Partial<GlobalRecodingDraft>, roles: Record<string, string> = {}): WizardState {
  const opened = reducer(initialState, { type: 'opened', file });
  const drafts = { ...opened.drafts, 'global-recoding': { ...(opened.drafts['global-recoding'] as GlobalRecodingDraft), ...patch } };
  return { ...opened, roles: { ...opened.roles, diagnosis: 'sensitive', income: 'insensitive', in_study: 'insensitive', ...roles }, method: 'global-recoding', drafts } as WizardState;
}

/** The direction line of the number field labelled `label` (the field's description names it first). */
function directionOf(label: string): string {
  const input = screen.getByLabelText(label);
  const id = input.getAttribute('aria-describedby')?.split(' ')[0] ?? '';
  return document.getElementById(id)?.textContent ?? '';
}

const show = (state: WizardState) => render(<ParametersStep file={file} state={state} dispatch={() => undefined} />);

describe('the global-recoding form\'s Loss settings, sensitive column and δ-presence', () => {
  it('the generalization/suppression factor: ARX\'s 0.5 by default, its direction in words, the schema\'s refusal of a value beyond 1', () => {
    show(stateWith({}));
    expect((screen.getByLabelText('Generalization/suppression factor') as HTMLInputElement).value).toBe('0.5');
    expect(directionOf('Generalization/suppression factor')).toMatch(/^Neither: larger prefers generalizing values to deleting records/);
    cleanup();
    show(stateWith({ lossSettings: { gsFactor: 1.5 } }));
    expect(screen.getByText(/the generalization\/suppression factor is a share in \[0, 1\]/)).toBeTruthy();
    cleanup();
    // Another measure: no Loss settings to set.
    show(stateWith({ measure: 'entropy' }));
    expect(screen.queryByLabelText('Generalization/suppression factor')).toBeNull();
  });

  it('a weight per quasi-identifier: 0.5 unless set, its direction in words, the schema\'s refusal of a weight beyond 1', () => {
    show(stateWith({ lossSettings: { attributeWeights: [{ column: 'age', weight: 0.9 }] } }));
    expect((screen.getByLabelText('Weight of age in the Loss') as HTMLInputElement).value).toBe('0.9');
    expect(directionOf('Weight of age in the Loss')).toMatch(/^Neither: larger keeps this column more detailed/);
    // Only quasi-identifiers are weighed.
    expect(screen.queryByLabelText('Weight of income in the Loss')).toBeNull();
    cleanup();
    show(stateWith({ lossSettings: { attributeWeights: [{ column: 'age', weight: 2 }] } }));
    expect(screen.getByText(/a weight is a share in \[0, 1\]/)).toBeTruthy();
  });

  it('several sensitive columns: ℓ-diversity asks which one, and says so until one is chosen', () => {
    show(stateWith({ model: 'l-diversity' }, { income: 'sensitive' }));
    const select = screen.getByLabelText('Sensitive column') as HTMLSelectElement;
    expect(Array.from(select.options).map((o) => o.value)).toEqual(['', 'diagnosis', 'income']);
    expect(screen.getByText(/several columns are marked sensitive: choose the one this model applies to/)).toBeTruthy();
    cleanup();
    show(stateWith({ model: 'l-diversity', attribute: 'income' }, { income: 'sensitive' }));
    expect((screen.getByLabelText('Sensitive column') as HTMLSelectElement).value).toBe('income');
    expect(screen.queryByText(/several columns are marked sensitive/)).toBeNull();
    cleanup();
    // One sensitive column: no choice to make.
    show(stateWith({ model: 'l-diversity' }));
    expect(screen.queryByLabelText('Sensitive column')).toBeNull();
  });

  it('δ-presence: the subset column among the columns not generalized, δmin stricter larger, δmax stricter smaller, the schema\'s refusal of δmin above δmax', () => {
    show(stateWith({ model: 'delta-presence' }));
    const select = screen.getByLabelText('Research subset column') as HTMLSelectElement;
    expect(Array.from(select.options).map((o) => o.value)).toEqual(['', 'income', 'in_study']);
    // The schema's refusal of an empty name, in the wizard's word for it.
    expect(screen.getByText('required')).toBeTruthy();
    expect(directionOf('δmin')).toMatch(/larger: stricter/);
    expect(directionOf('δmax')).toMatch(/smaller: stricter/);
    cleanup();
    show(stateWith({ model: 'delta-presence', subset: 'in_study', deltaMin: 0.6, deltaMax: 0.5 }));
    expect(screen.getByText(/δmin \(0\.6\) is above δmax \(0\.5\)/)).toBeTruthy();
  });
});
