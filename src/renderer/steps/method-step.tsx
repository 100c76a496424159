import { definitionOf, MECHANISM_DEFINITIONS, type MechanismType } from '../../mechanisms/definitions.js';
import { GoalQuestion, MethodAdvice, type ChainChoice } from './method-advice.js';
import { adviseMethods, ATTACKER_OPTIONS, ATTACKER_QUESTION, misfit, PROTECT_OPTIONS, PROTECT_QUESTION, RELEASE_OPTIONS, RELEASE_QUESTION, type GoalAnswers } from '../state/method-goal.js';
import type { Action, WizardState } from '../state/wizard-state.js';
import { chainTitle } from '../state/chain-choice.js';

/**
 * The goal first (what must be protected, what the attacker is assumed to know, records or tables),
 * the methods it recommends, and every method's card behind "All methods".
 * `onChooseChain`: the wizard's choice of a chain, when it has one (the answer "both").
 */
export function MethodStep(props: { state: WizardState; dispatch: (a: Action) => void; onChooseChain?: (steps: ChainChoice) => void }) {
  const goal = props.state.goal ?? {};
  const advice = adviseMethods(goal);
  const answer = (a: GoalAnswers): void => props.dispatch({ type: 'answerGoal', answer: a });
  const choose = (method: MechanismType): void => props.dispatch({ type: 'setMethod', method });
  const chosen = definitionOf(props.state.method);
  const complete = goal.protect !== undefined && goal.attacker !== undefined && goal.release !== undefined;
  const why = complete && advice.kind === 'advice' ? misfit(chosen, { protect: goal.protect!, attacker: goal.attacker!, release: goal.release! }) : undefined;
  return (
    <div className="method-step">
      <p className="lead">Say what the release must protect and what the attacker is assumed to know: Custos recommends the methods whose guarantee fits.</p>
      <div className="goal-questions">
        <GoalQuestion name="goal-protect" legend={PROTECT_QUESTION} options={PROTECT_OPTIONS} value={goal.protect} onChange={(protect) => answer({ protect })} />
        <GoalQuestion name="goal-attacker" legend={ATTACKER_QUESTION} options={ATTACKER_OPTIONS} value={goal.attacker} onChange={(attacker) => answer({ attacker })} />
        <GoalQuestion name="goal-release" legend={RELEASE_QUESTION} options={RELEASE_OPTIONS} value={goal.release} onChange={(release) => answer({ release })} />
      </div>
      <MethodAdvice advice={advice} method={props.state.method} onMethod={choose} onChooseChain={props.onChooseChain} />
      <p className="chosen-method" role="status">
        {props.state.chain ? (
          <>
            Selected: two steps, <strong>{chainTitle(props.state.chain)}</strong> (<code className="method-id">{props.state.chain.identity}</code>, then <code className="method-id">{props.state.chain.attribute}</code>). Choosing one method below replaces them.
          </>
        ) : (
          <>
        Selected: <strong>{chosen.metadata.title}</strong> (<code className="method-id">{chosen.metadata.type}</code>){why ? <span className="warn-text">: it does not fit these answers, it {why}.</span> : '.'}
          </>
        )}
      </p>
      <details className="all-methods">
        <summary>All methods ({MECHANISM_DEFINITIONS.length})</summary>
        <fieldset className="methods">
          <legend className="visually-hidden">All methods</legend>
          {MECHANISM_DEFINITIONS.map(({ metadata: m }) => (
            <label key={m.type} className={`method-card${props.state.method === m.type ? ' selected' : ''}`}>
              <input type="radio" name="method" value={m.type} checked={props.state.method === m.type} onChange={() => choose(m.type as MechanismType)} />
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
      </details>
    </div>
  );
}
