// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { OpenedFile } from '../../src/common/ipc/api.js';
import { MECHANISM_TYPES } from '../../src/mechanisms/definitions.js';
import { initialState, reducer, type WizardState } from '../../src/renderer/state/wizard-state.js';
import { ParametersStep } from '../../src/renderer/steps/parameters-step.js';
import { SURVEY_FILE } from './survey-file.js';

afterEach(cleanup);

const file: OpenedFile = {
  ...SURVEY_FILE,
  columns: [
    { name: 'age', type: 'integer', distinct: 40, missing: 0, top: [{ value: '30', count: 5 }] },
    { name: 'diagnosis', type: 'text', distinct: 3, missing: 0, top: [{ value: 'flu', count: 60 }, { value: 'cold', count: 35 }, { value: 'HIV', count: 5 }] },
  ],
};

function stateFor(method: WizardState['method']): WizardState {
  const opened = reducer(initialState, { type: 'opened', file });
  return { ...opened, roles: { ...opened.roles, diagnosis: 'sensitive' }, method };
}

/** The direction line of the number field labelled `label` (the field's description names it first). */
function directionOf(label: string): string {
  const input = screen.getByLabelText(label);
  const id = input.getAttribute('aria-describedby')?.split(' ')[0] ?? '';
  return document.getElementById(id)?.textContent ?? '';
}

describe('every parameter says which way is stricter, in words', () => {
  it('ε points one way in reconstruction privacy and the other in differential privacy', () => {
    render(<ParametersStep file={file} state={stateFor('reconstruction-privacy')} dispatch={() => undefined} />);
    expect(directionOf('ε (relative error)')).toBe('← smaller: more usefullarger: stricter →');
    expect(directionOf('Retention probability p')).toBe('← smaller: stricterlarger: more useful →');
    cleanup();
    render(<ParametersStep file={file} state={stateFor('dp-counts')} dispatch={() => undefined} />);
    expect(directionOf('ε (privacy budget)')).toBe('← smaller: stricterlarger: more useful →');
  });

  it('k is stricter when larger, t when smaller; a setting that moves neither way says why', () => {
    render(<ParametersStep file={file} state={stateFor('partitioned-recoding')} dispatch={() => undefined} />);
    expect(directionOf('k')).toMatch(/larger: stricter/);
    expect(directionOf('Parts')).toMatch(/^Neither: /);
  });

  it('every number field of every method\'s form has its direction line', () => {
    let seen = 0;
    for (const method of MECHANISM_TYPES) {
      render(<ParametersStep file={file} state={stateFor(method)} dispatch={() => undefined} />);
      const inputs = Array.from(document.querySelectorAll('input[type="number"]'));
      for (const input of inputs) {
        seen++;
        const id = input.getAttribute('aria-describedby')?.split(' ')[0] ?? '';
        const line = document.getElementById(id);
        expect(line?.classList.contains('direction'), `${method}: ${input.id}`).toBe(true);
        expect(line?.textContent, method).toMatch(/stricter|^Neither: /);
      }
      cleanup();
    }
    expect(seen).toBeGreaterThan(12);
  });
});
