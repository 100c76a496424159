// @vitest-environment happy-dom
/** The Parameters step of a chain: both steps' own forms, one after the other, each editing its own draft. */
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { definitionOf } from '../../src/mechanisms/definitions.js';
import { ParametersStep } from '../../src/renderer/steps/parameters-step.js';
import { reducer, type Action } from '../../src/renderer/state/wizard-state.js';
import { chained, FILE } from './chain-state.js';

afterEach(cleanup);

const title = (type: 'global-recoding' | 'beta-privacy'): string => definitionOf(type).metadata.title;

describe('the Parameters step of a chain', () => {
  it('shows the identity step’s form, then the attribute step’s, under numbered headings; each edits its own draft', () => {
    const actions: Action[] = [];
    render(<ParametersStep file={FILE} state={chained()} dispatch={(a) => actions.push(a)} />);
    // The steps' headings, in order (the forms have headings of their own, such as the hierarchy builder's).
    const headings = screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent).filter((t) => /^\d\. /.test(t ?? ''));
    expect(headings).toEqual([`1. Protect identity: ${title('global-recoding')}`, `2. Then the sensitive value: ${title('beta-privacy')}`]);
    const first = screen.getByRole('region', { name: `1. Protect identity: ${title('global-recoding')}` });
    const second = screen.getByRole('region', { name: `2. Then the sensitive value: ${title('beta-privacy')}` });
    // The identity step's form with the hierarchy table of the quasi-identifiers; the attribute step's without it.
    expect(within(first).getByLabelText('k')).toBeTruthy();
    expect(within(first).queryByLabelText('Largest bucket')).toBeNull();
    expect(within(first).getAllByText('age').length).toBeGreaterThan(0);
    expect(within(second).getByLabelText('Largest bucket')).toBeTruthy();
    expect(within(second).queryByLabelText('k')).toBeNull();
    fireEvent.change(within(first).getByLabelText('k'), { target: { value: '7' } });
    fireEvent.change(within(second).getByLabelText('Largest bucket'), { target: { value: '300' } });
    expect(actions).toContainEqual({ type: 'patchDraft', method: 'global-recoding', patch: { k: 7 } });
    expect(actions).toContainEqual({ type: 'patchDraft', method: 'beta-privacy', patch: { maxBucket: 300 } });
    expect(screen.queryByText('These two steps do not make a sound chain.')).toBeNull();
  });

  it('says when the two steps make no sound chain, with the chain’s reason', () => {
    const state = reducer(chained(), { type: 'patchDraft', method: 'global-recoding', patch: { model: 't-closeness', distance: 'hierarchical' } as never });
    render(<ParametersStep file={FILE} state={state} dispatch={() => undefined} />);
    expect(screen.getByText('These two steps do not make a sound chain.').parentElement!.textContent).toMatch(/method\[0\]\./);
  });

  it('one method shows its form alone, without step headings', () => {
    render(<ParametersStep file={FILE} state={reducer(chained(), { type: 'setMethod', method: 'beta-privacy' })} dispatch={() => undefined} />);
    expect(screen.queryAllByRole('heading', { level: 3 }).map((h) => h.textContent).filter((t) => /^\d\. /.test(t ?? ''))).toEqual([]);
    expect(screen.getByLabelText('Largest bucket')).toBeTruthy();
  });
});
