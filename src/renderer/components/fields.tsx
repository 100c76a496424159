import { useId, type ReactNode } from 'react';

/**
 * Which way a parameter tightens the protection. Each mechanism's form says it for each of its
 * parameters (the same letter points different ways: ε of reconstruction privacy is stricter when
 * larger, a differential-privacy ε when smaller); `DirectionLine` draws it, the same for all.
 * A parameter that does not move the protection either way says why in words (`neither`).
 */
export type Direction = { readonly stricter: 'smaller' | 'larger' } | { readonly neither: string };

/** The direction in words, as a screen reader and the tests read it. */
export function directionWords(direction: Direction): string {
  if ('neither' in direction) return direction.neither;
  return direction.stricter === 'smaller' ? 'Smaller is stricter; larger is more useful.' : 'Larger is stricter; smaller is more useful.';
}

/** "← smaller: stricter · larger: more useful →", under the field, the left end being the smaller values as on the slider. */
export function DirectionLine(props: { direction: Direction; id?: string }) {
  const { direction } = props;
  if ('neither' in direction) {
    return (
      <p className="direction neutral" id={props.id}>
        {direction.neither}
      </p>
    );
  }
  const smaller = direction.stricter === 'smaller' ? 'stricter' : 'more useful';
  const larger = direction.stricter === 'smaller' ? 'more useful' : 'stricter';
  return (
    <p className="direction" id={props.id} data-stricter={direction.stricter} title={directionWords(direction)}>
      <span className={smaller === 'stricter' ? 'stricter' : 'useful'}>← smaller: {smaller}</span>
      <span className={larger === 'stricter' ? 'stricter' : 'useful'}>larger: {larger} →</span>
    </p>
  );
}

/** A labelled number input with its help text; invalid input is shown, never silently clamped. */
export function NumberField(props: {
  label: string;
  value: number;
  onChange: (value: number) => void;
  help: ReactNode;
  /** Which way the parameter is stricter: the mechanism's own words, drawn the same for every form. */
  direction: Direction;
  min?: number;
  max?: number;
  step?: number;
  slider?: boolean;
  error?: string | undefined;
}) {
  const id = useId();
  const helpId = `${id}-help`;
  const directionId = `${id}-direction`;
  const invalid = props.error !== undefined;
  return (
    <div className={`field${invalid ? ' invalid' : ''}`}>
      <label htmlFor={id}>{props.label}</label>
      <div className="field-row">
        {props.slider && (
          <input
            type="range"
            aria-label={`${props.label} (slider)`}
            min={props.min}
            max={props.max}
            step={props.step}
            value={props.value}
            onChange={(e) => props.onChange(Number(e.target.value))}
          />
        )}
        <input
          id={id}
          type="number"
          inputMode="decimal"
          min={props.min}
          max={props.max}
          step={props.step}
          value={Number.isFinite(props.value) ? props.value : ''}
          aria-describedby={`${directionId} ${helpId}`}
          aria-invalid={invalid}
          onChange={(e) => props.onChange(e.target.value === '' ? Number.NaN : Number(e.target.value))}
        />
      </div>
      <DirectionLine direction={props.direction} id={directionId} />
      {invalid && <p className="error-text">{props.error}</p>}
      <p className="help" id={helpId}>
        {props.help}
      </p>
    </div>
  );
}

export function SelectField<T extends string>(props: { label: string; value: T; options: readonly { value: T; label: string }[]; onChange: (value: T) => void; help?: ReactNode }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <select id={id} value={props.value} onChange={(e) => props.onChange(e.target.value as T)} aria-describedby={props.help ? `${id}-help` : undefined}>
        {props.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {props.help && (
        <p className="help" id={`${id}-help`}>
          {props.help}
        </p>
      )}
    </div>
  );
}

export function TextField(props: { label: string; value: string; onChange: (value: string) => void; help?: ReactNode; placeholder?: string; wide?: boolean }) {
  const id = useId();
  return (
    <div className={`field${props.wide ? ' wide' : ''}`}>
      <label htmlFor={id}>{props.label}</label>
      <input id={id} type="text" value={props.value} placeholder={props.placeholder} spellCheck={false} onChange={(e) => props.onChange(e.target.value)} aria-describedby={props.help ? `${id}-help` : undefined} />
      {props.help && (
        <p className="help" id={`${id}-help`}>
          {props.help}
        </p>
      )}
    </div>
  );
}

export function CheckField(props: { label: string; checked: boolean; onChange: (checked: boolean) => void; help?: ReactNode; disabled?: boolean }) {
  const id = useId();
  return (
    <div className="check">
      <input id={id} type="checkbox" checked={props.checked} disabled={props.disabled} onChange={(e) => props.onChange(e.target.checked)} />
      <label htmlFor={id}>{props.label}</label>
      {props.help && <span className="help inline">{props.help}</span>}
    </div>
  );
}

export function Callout(props: { tone: 'info' | 'warn' | 'error' | 'ok'; children: ReactNode; title?: string }) {
  return (
    <div className={`callout ${props.tone}`} role={props.tone === 'error' ? 'alert' : 'status'}>
      {props.title && <strong>{props.title} </strong>}
      {props.children}
    </div>
  );
}

/** The report's warnings, each where the custodian will read it before releasing. */
export function ReportWarnings(props: { warnings: readonly string[] }) {
  if (props.warnings.length === 0) return null;
  return (
    <Callout tone="warn" title="Warnings:">
      <ul className="warnings">
        {props.warnings.map((w) => (
          <li key={w}>{w}</li>
        ))}
      </ul>
    </Callout>
  );
}
