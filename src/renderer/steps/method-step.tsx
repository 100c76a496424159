import { MECHANISM_DEFINITIONS, type MechanismType } from '../../mechanisms/definitions.js';
import type { Action, WizardState } from '../state/wizard-state.js';

export function MethodStep(props: { state: WizardState; dispatch: (a: Action) => void }) {
  return (
    <fieldset className="methods">
      <legend className="lead">Choose how to protect the sensitive columns.</legend>
      {MECHANISM_DEFINITIONS.map(({ metadata: m }) => (
        <label key={m.type} className={`method-card${props.state.method === m.type ? ' selected' : ''}`}>
          <input type="radio" name="method" value={m.type} checked={props.state.method === m.type} onChange={() => props.dispatch({ type: 'setMethod', method: m.type as MechanismType })} />
          <span className="method-body">
            <span className="method-title">
              {m.cardTitle} (<code className="method-id" title="Its name in job files and on the command line (custos init --method)">{m.type}</code>)
            </span>
            <span>
              <strong>Protects against:</strong> {m.protects}
            </span>
            <span>
              <strong>Costs:</strong> {m.costs}
            </span>
            <span className="muted">Guarantee: {m.guarantee}</span>
            <span className="muted source">Source: {m.source}</span>
          </span>
        </label>
      ))}

    </fieldset>
  );
}
