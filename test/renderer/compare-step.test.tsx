// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CustosApi } from '../../src/common/ipc/api.js';
import type { CompareStatus } from '../../src/common/ipc/compare-api.js';
import { named } from '../../src/common/job/names.js';
import { fieldName, plainFailure } from '../../src/renderer/components/plain-messages.js';
import { initialFamilies } from '../../src/renderer/state/compare-candidates.js';
import { initialState, type WizardState } from '../../src/renderer/state/wizard-state.js';
import { CompareStep, type CompareView } from '../../src/renderer/steps/compare-step.js';

afterEach(cleanup);

const state: WizardState = {
  ...initialState,
  inputPath: '/data/adult.csv',
  roles: named([['occupation', 'sensitive'], ['age', 'quasi'], ['salary-class', 'insensitive']]),
  method: 'reconstruction-privacy',
  output: { ...initialState.output, dir: '/data/adult-release' },
};

/** Randomized response at one value, and microaggregation with no column chosen (the wizard's default). */
function view(status?: CompareStatus): CompareView {
  const families = initialFamilies('reconstruction-privacy').map((f) =>
    f.method === 'uniform-perturbation' ? { ...f, values: '0.5' } : f.method === 'microaggregation' ? { ...f, included: true, values: '3' } : { ...f, included: false },
  );
  return { families, includeCurrent: false, candidates: [], csvPath: '/data/c.csv', ...(status ? { status } : {}) };
}

const candidate = {
  id: 1,
  label: 'Randomized response, retention 0.5',
  job: '(built in the app)',
  grid: [],
  method: { type: 'uniform-perturbation', title: 'Randomized response' },
  parameters: 'retention 0.5',
  guarantee: { label: 'p = 0.5', statement: 'x', holds: true },
  risk: { share: 0.2, measure: 'records in failing groups' },
  utility: { relativeError: 0.02, estimator: 'x' },
  releasedRecords: 100,
  frontier: true,
};

const comparison = {
  schema: 'custos.comparison/1' as const,
  confidential: 'CONFIDENTIAL',
  createdAt: '2026-01-01T00:00:00Z',
  software: { name: 'custos' as const, version: '1', node: 'v20', platform: 'linux-x64' },
  testRandomness: false,
  input: { path: '/data/adult.csv', sha256: 'a'.repeat(64), rows: 100 },
  pool: { description: 'd', columns: ['age'], queries: 5000, requested: 5000, attempts: 6000, minAnswer: 1 },
  candidates: [candidate],
  skipped: [
    { id: 2, label: 'Microaggregation, k 3', job: '(built in the app)', grid: [], method: { type: 'microaggregation', title: 'Microaggregation (MDAV)' }, stage: 'check' as const, reason: 'name at least one numeric column to aggregate', key: 'method.columns' },
  ],
  notes: ['choosing', 'n'],
  seconds: 1,
};

function api(): CustosApi {
  return {
    startCompare: vi.fn(async () => ({ ok: true, value: { id: 'c1' } })),
    compareStatus: vi.fn(async () => ({ id: 'c1', state: 'running', fraction: 0.5 })),
    cancelCompare: vi.fn(async () => undefined),
  } as unknown as CustosApi;
}

describe('the Compare step with a candidate that cannot run', () => {
  it('says before the start how many are compared and which is skipped and why, in its own method\'s words', () => {
    render(<CompareStep api={api()} state={state} dispatch={() => undefined} desktop={false} view={view()} setView={() => undefined} />);
    const button = screen.getByRole('button', { name: /^Compare/ });
    expect(button.textContent).toBe('Compare 1 candidate (1 skipped)');
    expect(button.hasAttribute('disabled')).toBe(false);
    const summary = document.getElementById('compare-cannot-run')!;
    expect(summary.textContent).toContain('1 of 2 candidates cannot run as set and will be skipped; the other 1 are compared');
    expect(summary.textContent).toContain('2. Microaggregation, k 3: cannot run: The columns to aggregate: name at least one numeric column to aggregate');
    expect(summary.textContent).not.toContain('columns to count');
  });

  it('sends every candidate (the host skips the same ones in their place) and moves the focus to the progress', async () => {
    const host = api();
    let current = view();
    const setView = (update: (v: CompareView) => CompareView) => (current = update(current));
    const { rerender } = render(<CompareStep api={host} state={state} dispatch={() => undefined} desktop={false} view={current} setView={setView} />);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: /^Compare/ })));
    expect((host.startCompare as ReturnType<typeof vi.fn>).mock.calls[0]![0].candidates.map((c: { label: string }) => c.label)).toEqual(['Randomized response, retention 0.5', 'Microaggregation, k 3']);
    rerender(<CompareStep api={host} state={state} dispatch={() => undefined} desktop={false} view={current} setView={setView} />);
    expect(document.activeElement?.className).toBe('progress-block');
  });

  it('keeps it in the table and beside the chart as "cannot run: <reason>", the others compared, the focus on the outcome', () => {
    const done: CompareStatus = { id: 'c1', state: 'done', fraction: 1, comparison };
    const v = { ...view(done), candidates: [] };
    render(<CompareStep api={api()} state={state} dispatch={() => undefined} desktop={false} view={v} setView={() => undefined} />);
    const heading = screen.getByRole('heading', { name: /candidates? compared/ });
    expect(heading.textContent).toContain('1 candidate compared, 1 could not run,');
    expect(document.activeElement).toBe(heading);
    const table = screen.getByRole('table', { name: /The comparison/ });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.querySelector('td')!.textContent)).toEqual(['1', '2']);
    expect(rows[1]!.textContent).toContain('cannot run (checked before the start): The columns to aggregate: name at least one numeric column to aggregate');
    expect(within(rows[1]!).queryByRole('button')).toBeNull();
    expect(document.body.textContent).toContain('Not on the chart: one candidate could not run.');
    // The error is named as what it measures, and told apart from the run report's.
    expect(within(table).getByRole('columnheader', { name: 'Common-pool query error' })).toBeTruthy();
    expect(document.getElementById('two-errors')!.textContent).toMatch(/not the run report's "mean relative error of sensitive-value count queries"/);
    // One point on the chart: the candidate that ran.
    expect(document.querySelectorAll('.risk-chart .point')).toHaveLength(1);
  });
});

describe("a failure's field, as its own method calls it", () => {
  it('is "the columns to aggregate" for microaggregation and "the columns to count" for dp-counts only', () => {
    const failure = { message: 'method.columns: name at least one numeric column to aggregate', key: 'method.columns' };
    expect(plainFailure(failure, 'microaggregation')).toBe('The columns to aggregate: name at least one numeric column to aggregate.');
    expect(plainFailure({ message: 'choose at least one column to count', key: 'method.columns' }, 'dp-counts')).toBe('The columns to count: choose at least one column to count.');
    expect(fieldName('method.columns')).toBe('the columns');
    expect(fieldName('method.k', 'microaggregation')).toBe('k');
  });
});
