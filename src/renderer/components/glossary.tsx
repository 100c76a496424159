import { useEffect, useRef } from 'react';

import { GLOSSARY } from '../../common/glossary.js';

export { GLOSSARY };

/**
 * The help panel: the glossary in a modal <dialog>, so the browser keeps the
 * keyboard inside it, makes the wizard behind it inert, closes it with Escape
 * and returns the focus to where it was.
 */
export function HelpPanel(props: { onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const { onClose } = props;
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!element.open) element.showModal();
    const onCancel = (e: Event): void => {
      e.preventDefault();
      onClose();
    };
    // A modal dialog keeps the page behind it inert, but Tab past its last control would leave for the
    // browser's own controls; it wraps round instead, as in a desktop dialog.
    const onKey = (e: KeyboardEvent): void => {
      if (e.key !== 'Tab') return;
      const focusable = Array.from(element.querySelectorAll<HTMLElement>('button, [href], input, select, textarea, [tabindex]:not([tabindex="-1"])'));
      const first = focusable[0];
      const last = focusable[focusable.length - 1];
      if (!first || !last) return;
      if (!e.shiftKey && document.activeElement === last) {
        e.preventDefault();
        first.focus();
      } else if (e.shiftKey && document.activeElement === first) {
        e.preventDefault();
        last.focus();
      }
    };
    element.addEventListener('cancel', onCancel);
    element.addEventListener('keydown', onKey);
    return () => {
      element.removeEventListener('cancel', onCancel);
      element.removeEventListener('keydown', onKey);
      if (element.open) element.close();
      opener?.focus();
    };
  }, [onClose]);
  return (
    <dialog ref={dialog} className="help-panel" aria-labelledby="help-title">
      <div className="help-head">
        <h2 id="help-title">Words Custos uses</h2>
        <button type="button" autoFocus onClick={onClose}>
          Close
        </button>
      </div>
      {/* The list scrolls: it takes the keyboard focus so it can be scrolled without a mouse. */}
      <dl tabIndex={0} aria-label="Glossary">
        {GLOSSARY.map((g) => (
          <div key={g.term}>
            <dt>{g.term}</dt>
            <dd>{g.meaning}</dd>
          </div>
        ))}
      </dl>
    </dialog>
  );
}
