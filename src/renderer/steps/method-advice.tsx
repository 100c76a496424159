import { useState } from 'react';
import type { GoalAdvice, GoalOption, Recommended } from '../state/method-goal.js';
import type { MechanismType } from '../../mechanisms/definitions.js';
import { Callout } from '../components/fields.js';

/** One of the Method step's questions: a radio group with its legend, each option with a short explanation. */
export function GoalQuestion<T extends string>(props: { name: string; legend: string; options: readonly GoalOption<T>[]; value: T | undefined; onChange: (value: T) => void }) {
  return (
    <fieldset className="goal-question">
      <legend>{props.legend}</legend>
      {props.options.map((o) => (
        <label key={o.value} className="goal-option">
          <input type="radio" name={props.name} value={o.value} checked={props.value === o.value} onChange={() => props.onChange(o.value)} />
          <span>
            {o.label} <span className="muted">— {o.help}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}

/** The two steps of "protect identity, then the sensitive value", as the chain choice takes them. */
export interface ChainChoice {
  readonly identity: MechanismType;
  readonly attribute: MechanismType;
}

function RecommendedOption(props: { name: string; r: Recommended; checked: boolean; onChange: () => void }) {
  const { r } = props;
  return (
    <label className={`recommended${props.checked ? ' selected' : ''}`}>
      <input type="radio" name={props.name} value={r.type} checked={props.checked} onChange={props.onChange} />
      <span className="method-body">
        <span className="method-title">
          {r.title} (<code className="method-id">{r.type}</code>)
        </span>
        <span>{r.reason}</span>
        {r.bestWhen && <span className="muted">Best when {r.bestWhen}.</span>}
      </span>
    </label>
  );
}

/**
 * What the answers recommend. "Both" is the plan "protect identity, then the sensitive value": with
 * `onChooseChain` the person picks both steps and hands them on; without it, the identity step is
 * selected here and the second step is said in words.
 */
export function MethodAdvice(props: { advice: GoalAdvice; method: MechanismType; onMethod: (method: MechanismType) => void; onChooseChain?: ((steps: ChainChoice) => void) | undefined }) {
  const { advice } = props;
  const [attributeStep, setAttributeStep] = useState<MechanismType>();
  if (advice.kind === 'unanswered') return <p className="muted goal-pending">Answer the three questions and Custos recommends the methods whose guarantee fits; every method is also listed below.</p>;
  if (advice.kind === 'none') return <Callout tone="warn">{advice.why}</Callout>;
  const chain = advice.chain;
  const second = chain?.attribute.find((r) => r.type === attributeStep) ?? chain?.attribute[0];
  return (
    <section className="goal-advice" aria-label="Recommended methods">
      {chain && second && (
        <div className="goal-plan">
          <h3>Recommended: protect identity, then the sensitive value</h3>
          <p className="help">Two methods, the second run on the first’s release: the first makes every record hard to find, the second protects the sensitive value of the records it is given.</p>
          <fieldset className="recommendations">
            <legend>1. Protect identity with</legend>
            {chain.identity.map((r) => (
              <RecommendedOption key={r.type} name="recommended-identity" r={r} checked={props.method === r.type} onChange={() => props.onMethod(r.type)} />
            ))}
          </fieldset>
          {props.onChooseChain ? (
            <>
              <fieldset className="recommendations">
                <legend>2. Then protect the sensitive value with</legend>
                {chain.attribute.map((r) => (
                  <RecommendedOption key={r.type} name="recommended-attribute" r={r} checked={second.type === r.type} onChange={() => setAttributeStep(r.type)} />
                ))}
              </fieldset>
              <button type="button" className="primary" onClick={() => props.onChooseChain?.({ identity: chain.identity.some((r) => r.type === props.method) ? props.method : chain.identity[0]!.type, attribute: second.type })}>
                Use these two steps
              </button>
            </>
          ) : (
            <div className="recommendations">
              <p className="plan-step">2. Then protect the sensitive value with:</p>
              <ul>
                {chain.attribute.map((r) => (
                  <li key={r.type}>
                    <strong>{r.title}</strong> (<code className="method-id">{r.type}</code>): {r.reason}
                  </li>
                ))}
              </ul>
              <p className="help">
                The wizard runs one method at a time: the identity step chosen above is selected. A job file can name both steps, <code>"method": [identity step, sensitive-value step]</code>, which <code>custos run</code> takes as one release.
              </p>
            </div>
          )}
        </div>
      )}
      {advice.methods.length > 0 && (
        <fieldset className="recommendations">
          <legend>{chain ? 'Or one method that covers both' : 'Recommended for these answers'}</legend>
          {advice.methods.map((r) => (
            <RecommendedOption key={r.type} name="recommended-method" r={r} checked={props.method === r.type} onChange={() => props.onMethod(r.type)} />
          ))}
        </fieldset>
      )}
      {advice.notes.map((note) => (
        <p key={note} className="help goal-note">
          {note}
        </p>
      ))}
    </section>
  );
}
