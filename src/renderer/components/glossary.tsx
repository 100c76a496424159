import { useEffect, useRef } from 'react';

/** Every term the wizard uses, each in one sentence a custodian can act on. */
export const GLOSSARY: readonly { readonly term: string; readonly meaning: string }[] = [
  { term: 'Identifier', meaning: 'A column that names a person or a record directly (name, record number); it is dropped from every release.' },
  { term: 'Quasi-identifier', meaning: 'A fact others may know about a person (age, sex, region, a date); together such facts can single a person out.' },
  { term: 'Sensitive column', meaning: 'What the release protects: the value nobody should learn about a person (a diagnosis, an income).' },
  { term: 'Micro group', meaning: 'The records that share every non-sensitive value; an adversary who knows a person’s values knows which micro group is theirs.' },
  { term: 'Retention p', meaning: 'The probability that a record keeps its true sensitive value; otherwise it gets a value drawn at random from the column’s domain.' },
  { term: 'ρ1–ρ2 privacy', meaning: 'An adversary who believed a value with probability at most ρ1 before the release cannot believe it with more than ρ2 after.' },
  { term: 'ε (reconstruction privacy)', meaning: 'The relative error by which an adversary’s estimate of a micro group’s share of a value must miss; larger is stricter.' },
  { term: 'δ (reconstruction privacy)', meaning: 'The level that the Chernoff upper bounds on the probability of that estimate missing by more than ε (above and below) must each reach; larger is stricter. The test compares bounds, not exact probabilities: it does not promise that the estimate misses with probability δ or more.' },
  { term: 's_g', meaning: 'The largest size at which a micro group passes the (ε, δ) test; larger groups are sampled down to it and scaled back.' },
  { term: 'β (β-privacy)', meaning: 'For each sensitive value, the largest probability with which an adversary may infer it; rare, very sensitive values get a small β.' },
  { term: 'Bucket', meaning: 'A group of records published together: the other columns show only which bucket a record is in, the sensitive values are listed per bucket.' },
  { term: 'k', meaning: 'Every combination of released quasi-identifier values is shared by at least k records.' },
  { term: 'Sampling rate β (safe k-anonymity)', meaning: 'The probability with which each record enters the release; the sample is what makes the release differentially private.' },
  { term: 'ε (differential privacy)', meaning: 'How much one person’s presence may change the chance of any release: at most a factor e^ε.' },
  { term: 'δ (differential privacy)', meaning: 'The small probability with which that bound may fail; it should be well below 1 divided by the number of records.' },
  { term: 'Generalization level', meaning: 'How coarsely a column is released: level 0 as collected, higher levels coarser (age 37 → 30–39 → *).' },
  { term: 'Internal report', meaning: 'The confidential account of a run, with facts of the input; it stays with the data and is never published.' },
  { term: 'Release folder', meaning: 'What may be published: the protected data, the external report, the job and a manifest of checksums.' },
];

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
