import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { OpenedFile } from '../../src/common/ipc/api.js';
import { own } from '../../src/common/job/names.js';
import { historyReducer, HISTORY_LIMIT, initialHistory, snapshotOf, type History, type HistoryAction } from '../../src/renderer/state/history.js';
import { INITIAL_DRAFTS } from '../../src/renderer/state/wizard-state.js';
import { SURVEY_FILE } from './survey-file.js';

const file: OpenedFile = {
  ...SURVEY_FILE,
  columns: [
    { name: 'patient_id', type: 'text', distinct: 100, missing: 0, top: [] },
    { name: 'age', type: 'integer', distinct: 40, missing: 0, top: [{ value: '30', count: 5 }] },
    { name: 'diagnosis', type: 'text', distinct: 3, missing: 0, top: [{ value: 'flu', count: 60 }] },
  ],
};

const opened: History = historyReducer(initialHistory, { type: 'opened', file });

function run(history: History, actions: readonly HistoryAction[]): History {
  return actions.reduce(historyReducer, history);
}

const job = (h: History): string => JSON.stringify(snapshotOf(h.present));

/** Changes of the job of every kind the history records, and moves that are not changes. */
const change: fc.Arbitrary<HistoryAction> = fc.oneof(
  fc.record({ column: fc.constantFrom('patient_id', 'age', 'diagnosis'), role: fc.constantFrom('identifier', 'quasi', 'sensitive', 'insensitive') }).map(({ column, role }) => ({ type: 'setRole', column, role }) as HistoryAction),
  fc.constantFrom('reconstruction-privacy', 'beta-privacy', 'safe-k-anonymity', 'global-recoding').map((method) => ({ type: 'setMethod', method }) as HistoryAction),
  fc.double({ min: 0.05, max: 0.95, noNaN: true }).map((retention) => ({ type: 'patchDraft', method: 'reconstruction-privacy', patch: { retention } }) as HistoryAction),
  fc.double({ min: 0.05, max: 2, noNaN: true }).map((epsilon) => ({ type: 'patchDraft', method: 'reconstruction-privacy', patch: { epsilon } }) as HistoryAction),
  fc.integer({ min: 0, max: 3 }).map((level) => ({ type: 'setHierarchy', column: 'age', patch: { kind: 'interval', level } }) as HistoryAction),
  fc.constantFrom<HistoryAction>({ type: 'resetStep', step: 'columns' }, { type: 'resetStep', step: 'parameters' }, { type: 'setMissingSensitive', missingSensitive: 'exclude' }),
  fc.constantFrom<HistoryAction>({ type: 'go', step: 'parameters' }, { type: 'patchOutput', patch: { csv: false } }),
);

describe('undo and redo of the job', () => {
  it('undoing n changes and redoing them n times returns the same job', () => {
    fc.assert(
      fc.property(fc.array(change, { maxLength: 30 }), (actions) => {
        const changed = run(opened, actions);
        const undone = run(changed, actions.map(() => ({ type: 'undo' })));
        expect(job(undone)).toBe(job(opened));
        expect(undone.past).toHaveLength(0);
        const redone = run(undone, actions.map(() => ({ type: 'redo' })));
        expect(job(redone)).toBe(job(changed));
        expect(redone.future).toHaveLength(0);
        // Navigation is not a change: the step stays where the person is.
        expect(undone.present.step).toBe(changed.present.step);
      }),
    );
  });

  it('a new change after an undo clears what could be redone', () => {
    fc.assert(
      fc.property(fc.array(change, { minLength: 1, maxLength: 20 }), fc.integer({ min: 1, max: 5 }), (actions, undos) => {
        const undone = run(run(opened, actions), Array.from({ length: undos }, () => ({ type: 'undo' }) as const));
        const k = (undone.present.drafts['safe-k-anonymity'] as { k: number | 'auto' }).k;
        const after = historyReducer(undone, { type: 'patchDraft', method: 'safe-k-anonymity', patch: { k: typeof k === 'number' ? k + 1 : 3 } });
        expect(after.past.length).toBeGreaterThan(0);
        expect(after.future).toHaveLength(0);
        expect(job(historyReducer(after, { type: 'redo' }))).toBe(job(after));
      }),
    );
  });

  it('names what Undo will undo, and one field typed into is one step', () => {
    let h = historyReducer(opened, { type: 'setMethod', method: 'safe-k-anonymity' });
    expect(h.past.at(-1)?.label).toMatch(/^method: .+ → .+$/);
    const k = (h.present.drafts['safe-k-anonymity'] as { k: number }).k;
    h = run(h, [
      { type: 'patchDraft', method: 'safe-k-anonymity', patch: { k: 1 } },
      { type: 'patchDraft', method: 'safe-k-anonymity', patch: { k: 10 } },
    ]);
    expect(h.past).toHaveLength(2);
    expect(h.past.at(-1)?.label).toBe(`k = ${k} → 10`);
    h = historyReducer(h, { type: 'setRole', column: 'age', role: 'sensitive' });
    expect(h.past.at(-1)?.label).toBe('age: quasi → sensitive');
    h = run(h, [{ type: 'undo' }, { type: 'undo' }]);
    expect((h.present.drafts['safe-k-anonymity'] as { k: number }).k).toBe(k);
    expect(h.future.map((c) => c.label)).toEqual(['age: quasi → sensitive', `k = ${k} → 10`]);
  });

  it('keeps the last 50 changes', () => {
    const actions = Array.from({ length: HISTORY_LIMIT + 10 }, (_, i): HistoryAction => ({ type: 'setRole', column: 'age', role: i % 2 === 0 ? 'sensitive' : 'quasi' }));
    const h = run(opened, actions);
    expect(h.past).toHaveLength(HISTORY_LIMIT);
    expect(run(h, Array.from({ length: 60 }, () => ({ type: 'undo' }) as const)).past).toHaveLength(0);
  });

  it('forgets the changes of another file or job', () => {
    const h = historyReducer(opened, { type: 'setRole', column: 'age', role: 'sensitive' });
    expect(h.past).toHaveLength(1);
    expect(historyReducer(h, { type: 'opened', file }).past).toHaveLength(1);
    expect(historyReducer(h, { type: 'opened', file: { ...file, path: '/data/other.csv' } }).past).toHaveLength(0);
    expect(historyReducer(h, { type: 'load', state: h.present }).past).toHaveLength(0);
  });
});

describe('reset this step', () => {
  it('puts the Columns step back to the suggested roles, undoably, and leaves the parameters', () => {
    let h = run(opened, [
      { type: 'setRole', column: 'patient_id', role: 'quasi' },
      { type: 'setRole', column: 'diagnosis', role: 'sensitive' },
      { type: 'patchDraft', method: 'reconstruction-privacy', patch: { retention: 0.2 } },
      { type: 'resetStep', step: 'columns' },
    ]);
    expect({ ...h.present.roles }).toEqual({ ...opened.present.roles });
    expect(own(h.present.roles, 'patient_id')).toBe('identifier');
    expect(h.present.drafts['reconstruction-privacy'].retention).toBe(0.2);
    expect(h.past.at(-1)?.label).toBe('reset the Columns step');
    h = historyReducer(h, { type: 'undo' });
    expect(own(h.present.roles, 'diagnosis')).toBe('sensitive');
  });

  it('puts the Parameters step back to the method suggested parameters and no hierarchies, other methods untouched', () => {
    const h = run(opened, [
      { type: 'patchDraft', method: 'safe-k-anonymity', patch: { k: 9 } },
      { type: 'patchDraft', method: 'reconstruction-privacy', patch: { retention: 0.2 } },
      { type: 'setHierarchy', column: 'age', patch: { kind: 'interval', level: 2 } },
      { type: 'setRole', column: 'diagnosis', role: 'sensitive' },
      { type: 'resetStep', step: 'parameters' },
    ]);
    expect(h.present.drafts['reconstruction-privacy']).toEqual(INITIAL_DRAFTS['reconstruction-privacy']);
    expect(Object.keys(h.present.hierarchies)).toEqual([]);
    expect((h.present.drafts['safe-k-anonymity'] as { k: number }).k).toBe(9);
    expect(own(h.present.roles, 'diagnosis')).toBe('sensitive');
    expect(own(historyReducer(h, { type: 'undo' }).present.hierarchies, 'age')?.level).toBe(2);
  });
});
