// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { useReducer } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MECHANISM_DEFINITIONS } from '../../src/mechanisms/definitions.js';
import type { ChainChoice } from '../../src/renderer/steps/method-advice.js';
import { initialState, reducer, type WizardState } from '../../src/renderer/state/wizard-state.js';
import { MethodStep } from '../../src/renderer/steps/method-step.js';

afterEach(cleanup);

/** The step with the wizard's own reducer, so answers and choices go through the state as in the app. */
function Step(props: { start?: WizardState; onChooseChain?: (steps: ChainChoice) => void; seen?: (state: WizardState) => void }) {
  const [state, dispatch] = useReducer(reducer, props.start ?? initialState);
  props.seen?.(state);
  return <MethodStep state={state} dispatch={dispatch} {...(props.onChooseChain ? { onChooseChain: props.onChooseChain } : {})} />;
}

const group = (name: string): HTMLElement => screen.getByRole('group', { name });

function answer(protect: RegExp, attacker: RegExp, release: RegExp): void {
  fireEvent.click(within(group('What must the release protect?')).getByRole('radio', { name: protect }));
  fireEvent.click(within(group('What is the attacker assumed to know?')).getByRole('radio', { name: attacker }));
  fireEvent.click(within(group('Must the release be record-level?')).getByRole('radio', { name: release }));
}

describe('the Method step', () => {
  it('asks the goal in three labelled radio groups and keeps the eight cards behind “All methods”', () => {
    render(<Step />);
    expect(within(group('What must the release protect?')).getAllByRole('radio')).toHaveLength(4);
    expect(within(group('What is the attacker assumed to know?')).getAllByRole('radio')).toHaveLength(4);
    expect(within(group('Must the release be record-level?')).getAllByRole('radio')).toHaveLength(2);
    expect(screen.getByText(/Answer the three questions/)).toBeTruthy();
    const all = screen.getByText(`All methods (${MECHANISM_DEFINITIONS.length})`).closest('details')!;
    expect(all.open).toBe(false);
    expect(within(all).getAllByRole('radio', { hidden: true })).toHaveLength(MECHANISM_DEFINITIONS.length);
  });

  it('recommends from the answers, each method with its reason, and selects the first', () => {
    let state = initialState;
    render(<Step seen={(s) => (state = s)} />);
    answer(/^Who a record belongs to/, /^Who is in the file/, /^Yes: one row per person/);
    const recommended = group('Recommended for these answers');
    const first = within(recommended).getAllByRole('radio')[0]!;
    expect(first.closest('label')!.textContent).toMatch(/^Optimal global recoding \(global-recoding\)Coarsens the quasi-identifiers/);
    expect((first as HTMLInputElement).checked).toBe(true);
    expect(state.method).toBe('global-recoding');
    expect(within(recommended).queryByRole('radio', { name: /Reconstruction privacy/ })).toBeNull();
    fireEvent.click(within(recommended).getByRole('radio', { name: /^Microaggregation/ }));
    expect(state.method).toBe('microaggregation');
    expect(screen.getByText(/Best when the quasi-identifiers are numbers/)).toBeTruthy();
  });

  it('says when the selected method does not fit the answers, and why', () => {
    render(<Step start={reducer(initialState, { type: 'answerGoal', answer: { protect: 'identity', attacker: 'membership', release: 'records' } })} />);
    fireEvent.click(screen.getByRole('radio', { name: /^Reconstruction privacy \(/ }));
    expect(screen.getByRole('status').textContent).toMatch(/^Selected: \(ε,δ\)-reconstruction privacy.*: it does not fit these answers, it protects the sensitive value only/);
  });

  it('for both, recommends protecting identity then the sensitive value: the identity step selected, the second step in words', () => {
    let state = initialState;
    render(<Step seen={(s) => (state = s)} />);
    answer(/^Both/, /^Who is in the file/, /^Yes: one row per person/);
    expect(screen.getByRole('heading', { name: 'Recommended: protect identity, then the sensitive value' })).toBeTruthy();
    expect(state.method).toBe('global-recoding');
    expect((within(group('1. Protect identity with')).getByRole('radio', { name: /^Optimal global recoding/ }) as HTMLInputElement).checked).toBe(true);
    expect(screen.getByText('2. Then protect the sensitive value with:').parentElement!.textContent).toMatch(/β-privacy bucketization.*custos run/s);
    expect(screen.queryByRole('button', { name: 'Use these two steps' })).toBeNull();
  });

  it('hands both steps to the chain choice when the wizard has one', () => {
    const chosen = vi.fn<(steps: ChainChoice) => void>();
    render(<Step onChooseChain={chosen} />);
    answer(/^Both/, /^The quasi-identifiers of everyone/, /^Yes: one row per person/);
    fireEvent.click(within(group('1. Protect identity with')).getByRole('radio', { name: /^Microaggregation/ }));
    fireEvent.click(within(group('2. Then protect the sensitive value with')).getByRole('radio', { name: /^β-privacy/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Use these two steps' }));
    expect(chosen).toHaveBeenCalledWith({ identity: 'microaggregation', attribute: 'beta-privacy' });
  });

  it('says plainly when the answers contradict each other', () => {
    render(<Step />);
    answer(/^Only counts or tables/, /^Nothing beyond/, /^Yes: one row per person/);
    expect(screen.getByText(/Only counts or tables are published, yet the release must be record-level/)).toBeTruthy();
  });
});
