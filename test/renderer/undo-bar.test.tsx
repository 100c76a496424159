// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useReducer } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { OpenedFile } from '../../src/common/ipc/api.js';
import { own } from '../../src/common/job/names.js';
import { ResetStepButton, UndoBar, useUndoKeys, OWN_UNDO } from '../../src/renderer/undo-bar.js';
import { historyReducer, initialHistory, type History } from '../../src/renderer/state/history.js';
import { SURVEY_FILE } from './survey-file.js';

afterEach(cleanup);

const file: OpenedFile = { ...SURVEY_FILE, columns: [{ name: 'age', type: 'integer', distinct: 40, missing: 0, top: [] }] };

let shown: History = initialHistory;

/** The bar with the app's reducer and keys, and a role select and a text field with an undo of its own. */
function Harness() {
  const [history, dispatch] = useReducer(historyReducer, historyReducer(initialHistory, { type: 'opened', file }));
  useUndoKeys(dispatch);
  shown = history;
  return (
    <>
      <UndoBar history={history} dispatch={dispatch} />
      <ResetStepButton step="columns" dispatch={dispatch} />
      <button type="button" onClick={() => dispatch({ type: 'setRole', column: 'age', role: 'sensitive' })}>
        age sensitive
      </button>
      <textarea aria-label="Notes" {...{ [OWN_UNDO]: '' }} />
    </>
  );
}

describe('the undo bar', () => {
  it('names what will be undone and redone, by button and by keyboard', () => {
    render(<Harness />);
    expect(screen.getByRole('button', { name: '↶ Undo' }).hasAttribute('disabled')).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'age sensitive' }));
    expect(own(shown.present.roles, 'age')).toBe('sensitive');
    fireEvent.click(screen.getByRole('button', { name: '↶ Undo: age: quasi → sensitive' }));
    expect(own(shown.present.roles, 'age')).toBe('quasi');
    fireEvent.keyDown(window, { key: 'Z', ctrlKey: true, shiftKey: true });
    expect(own(shown.present.roles, 'age')).toBe('sensitive');
    fireEvent.keyDown(window, { key: 'z', ctrlKey: true });
    expect(own(shown.present.roles, 'age')).toBe('quasi');
    fireEvent.keyDown(window, { key: 'y', ctrlKey: true });
    expect(own(shown.present.roles, 'age')).toBe('sensitive');
    expect(screen.getByRole('button', { name: '↷ Redo' }).hasAttribute('disabled')).toBe(true);
    // Ctrl+Z in the notes undoes typing there, never the job.
    fireEvent.keyDown(screen.getByRole('textbox', { name: 'Notes' }), { key: 'z', ctrlKey: true });
    expect(own(shown.present.roles, 'age')).toBe('sensitive');
  });

  it('resets the step, and Undo brings the setting back', () => {
    render(<Harness />);
    fireEvent.click(screen.getByRole('button', { name: 'age sensitive' }));
    fireEvent.click(screen.getByRole('button', { name: 'Reset this step' }));
    expect(own(shown.present.roles, 'age')).toBe('quasi');
    fireEvent.click(screen.getByRole('button', { name: '↶ Undo: reset the Columns step' }));
    expect(own(shown.present.roles, 'age')).toBe('sensitive');
  });
});
