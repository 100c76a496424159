// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Report } from '../../src/common/ipc/api.js';
import { named, type Named } from '../../src/common/job/names.js';
import { RecodingLattice, type LevelEntry } from '../../src/renderer/components/recoding-lattice.js';
import { buildJob, stateFromJob } from '../../src/renderer/state/job.js';
import { initialState, reducer } from '../../src/renderer/state/wizard-state.js';
import { SURVEY_FILE } from './survey-file.js';

afterEach(cleanup);

/** The parts of an assessment's report the lattice view reads. */
function reportWith(jobLevels: Record<string, LevelEntry> | undefined): Report {
  const solutions = [
    { levels: { age: 1, zip: 0 }, measure: 0.1, suppressedRecords: 4, highestRisk: 0.5, chosen: true },
    { levels: { age: 0, zip: 2 }, measure: 0.2, suppressedRecords: 0, highestRisk: 0.25, chosen: false },
    { levels: { age: 2, zip: 1 }, measure: 0.3, suppressedRecords: 1, highestRisk: 0.1, chosen: false },
  ];
  return {
    job: { method: { type: 'global-recoding', ...(jobLevels ? { levels: jobLevels } : {}) } },
    method: { type: 'global-recoding', title: '', parameters: { measure: 'loss' }, derived: { latticeNodes: 9 }, levels: { age: 1, zip: 0 }, internal: { satisfyingTransformations: 3, evaluatedNodes: 9 }, solutions, frontier: [] },
    anonymity: { columns: [{ name: 'age', level: 1, depth: 3 }, { name: 'zip', level: 0, depth: 3 }] },
  } as unknown as Report;
}

const bodyRows = (): HTMLElement[] => within(screen.getByRole('table', { name: /Transformations that meet the models/ })).getAllByRole('row').slice(1);

describe('the solution space in the risk preview (global recoding)', () => {
  it('lists the transformations that meet the models, sorts them by a heading, and "Use" names one exactly', () => {
    const chosen: Named<LevelEntry>[] = [];
    render(<RecodingLattice report={reportWith(undefined)} onSetLevels={(levels) => chosen.push(levels)} />);
    expect(bodyRows().map((r) => r.textContent)).toEqual([expect.stringMatching(/^100\.1.*chosen$/), expect.stringMatching(/^020\.2.*Use$/), expect.stringMatching(/^210\.3.*Use$/)]);
    // Sorted by highest risk: the lowest risk first, then the reverse on a second press.
    fireEvent.click(screen.getByRole('button', { name: /Highest risk/ }));
    expect(bodyRows()[0]!.textContent).toMatch(/^210\.3/);
    expect(screen.getByRole('columnheader', { name: /Highest risk/ }).getAttribute('aria-sort')).toBe('ascending');
    fireEvent.click(screen.getByRole('button', { name: /Highest risk/ }));
    expect(bodyRows()[0]!.textContent).toMatch(/^100\.1/);
    fireEvent.click(screen.getByRole('button', { name: 'Use age 2, zip 1' }));
    expect(chosen.map((c) => ({ ...c }))).toEqual([{ age: 2, zip: 1 }]);
    // Keep one column at its chosen level.
    fireEvent.click(screen.getByRole('button', { name: 'Keep level 1 of age' }));
    expect({ ...chosen[1] }).toEqual({ age: 1 });
  });

  it('with every column kept, says the job names the transformation and offers to free the levels; a kept column can be freed', () => {
    const chosen: Named<LevelEntry>[] = [];
    render(<RecodingLattice report={reportWith({ age: 1, zip: 0 })} onSetLevels={(levels) => chosen.push(levels)} />);
    expect(screen.getByText(/The job names this transformation exactly/)).toBeTruthy();
    expect(screen.queryByRole('table', { name: /Transformations that meet the models/ })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Free the level of zip' }));
    expect({ ...chosen[0] }).toEqual({ age: 1 });
    fireEvent.click(screen.getByRole('button', { name: 'Free all levels' }));
    expect(Object.keys(chosen[1]!)).toEqual([]);
  });

  it('the levels chosen go into the job as method.levels, and a job with levels opens with them', () => {
    const file = { ...SURVEY_FILE, columns: [{ name: 'age', type: 'integer' as const, distinct: 40, missing: 0, top: [] }] };
    const opened = reducer(initialState, { type: 'opened', file });
    const state = reducer({ ...opened, method: 'global-recoding' }, { type: 'patchDraft', method: 'global-recoding', patch: { levels: named([['age', 2]]) } });
    const job = buildJob(state) as { method: { levels?: Record<string, LevelEntry> } };
    expect({ ...job.method.levels }).toEqual({ age: 2 });
    const again = buildJob(stateFromJob(JSON.parse(JSON.stringify(job)))) as { method: { levels?: Record<string, LevelEntry> } };
    expect({ ...again.method.levels }).toEqual({ age: 2 });
    const freed = reducer(state, { type: 'patchDraft', method: 'global-recoding', patch: { levels: named() } });
    expect((buildJob(freed) as { method: { levels?: unknown } }).method.levels).toBeUndefined();
  });
});
