import { useEffect } from 'react';
import type { History, HistoryAction } from './state/history.js';
import type { ResettableStep } from './state/reset-step.js';

/** Inside such an element (the project's name and notes) Ctrl+Z undoes typing, not the job. */
export const OWN_UNDO = 'data-own-undo';

/**
 * Ctrl+Z undoes the last change of the job, Ctrl+Shift+Z and Ctrl+Y redo it (⌘ on a Mac), wherever
 * the focus is except in text that has an undo of its own.
 */
export function useUndoKeys(dispatch: (action: HistoryAction) => void): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent): void => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey) return;
      const key = event.key.toLowerCase();
      const redo = key === 'y' || (key === 'z' && event.shiftKey);
      if (key !== 'z' && key !== 'y') return;
      if (event.target instanceof Element && event.target.closest(`[${OWN_UNDO}]`)) return;
      event.preventDefault();
      dispatch({ type: redo ? 'redo' : 'undo' });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [dispatch]);
}

/** Undo and Redo, each naming the change it would undo or redo. */
export function UndoBar({ history, dispatch }: { history: History; dispatch: (action: HistoryAction) => void }) {
  const undo = history.past.at(-1);
  const redo = history.future.at(-1);
  return (
    <div className="undo-bar" role="group" aria-label="Undo and redo">
      <button type="button" disabled={!undo} title={undo ? `Undo: ${undo.label} (Ctrl+Z)` : 'Nothing to undo'} aria-keyshortcuts="Control+Z" onClick={() => dispatch({ type: 'undo' })}>
        {undo ? `↶ Undo: ${undo.label}` : '↶ Undo'}
      </button>
      <button type="button" disabled={!redo} title={redo ? `Redo: ${redo.label} (Ctrl+Shift+Z)` : 'Nothing to redo'} aria-keyshortcuts="Control+Shift+Z Control+Y" onClick={() => dispatch({ type: 'redo' })}>
        {redo ? `↷ Redo: ${redo.label}` : '↷ Redo'}
      </button>
    </div>
  );
}

/** "Reset this step": the step's settings as first suggested; one change, so Undo brings them back. */
export function ResetStepButton({ step, dispatch }: { step: ResettableStep; dispatch: (action: HistoryAction) => void }) {
  const what = step === 'columns' ? 'the suggested roles' : 'the suggested parameters of this method, without hierarchies';
  return (
    <button type="button" className="link" title={`Back to ${what}; Undo brings your settings back.`} onClick={() => dispatch({ type: 'resetStep', step })}>
      Reset this step
    </button>
  );
}
