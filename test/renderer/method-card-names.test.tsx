// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { MECHANISM_DEFINITIONS } from '../../src/mechanisms/definitions.js';
import { initialState } from '../../src/renderer/state/wizard-state.js';
import { MethodStep } from '../../src/renderer/steps/method-step.js';

afterEach(cleanup);

it('each method card shows the name the command line and job files use beside its title', () => {
  render(<MethodStep state={initialState} dispatch={() => undefined} />);
  expect(screen.getByRole('radio', { name: /^Randomized response \(\s*uniform-perturbation\s*\)/ })).toBeTruthy();
  for (const { metadata } of MECHANISM_DEFINITIONS) {
    expect(screen.getByRole('radio', { name: new RegExp(`^${metadata.cardTitle.replace(/[()+.]/g, '\\$&')} \\(\\s*${metadata.type}\\s*\\)`) })).toBeTruthy();
  }
});
