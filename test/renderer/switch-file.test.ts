/**
 * Opening another file keeps the settings that still apply (those naming its columns, a sheet it
 * holds, the missing-value codes) and drops the rest, naming it: a hierarchy keyed by a column the
 * new file lacks would sit in the job unseen and block the run.
 */
import { describe, expect, it } from 'vitest';
import type { OpenedFile } from '../../src/common/ipc/api.js';
import { buildJob } from '../../src/renderer/state/job.js';
import { initialState, reducer, type WizardState } from '../../src/renderer/state/wizard-state.js';

const file = (path: string, columns: string[], sheets?: string[]): OpenedFile =>
  ({ path, name: path.split('/').pop(), rows: 10, format: sheets ? 'xlsx' : 'csv', columns: columns.map((name) => ({ name, type: 'text', distinct: 2, missing: 0, top: [] })), ...(sheets ? { sheet: sheets[0], sheets } : {}) }) as unknown as OpenedFile;

function withSettings(): WizardState {
  let state = reducer(initialState, { type: 'opened', file: file('/data/old.xlsx', ['age', 'birth', 'sex'], ['README', 'data']) });
  state = reducer(state, { type: 'setFileOptions', options: { sheet: 'data', missing: 'NA', dates: { birth: 'dd/mm/yyyy' } } });
  state = reducer(state, { type: 'setHierarchy', column: 'age', patch: { kind: 'interval', widths: '10', level: 1 } });
  state = reducer(state, { type: 'setHierarchy', column: 'birth', patch: { kind: 'date', level: 2 } });
  return reducer(state, { type: 'setMethod', method: 'global-recoding' });
}

describe('opening another file', () => {
  it('drops the hierarchies, date formats and sheet the new file has no place for, names them, and keeps the rest', () => {
    const state = reducer(withSettings(), { type: 'opened', file: file('/data/new.csv', ['age', 'sex', 'region']) });
    expect(state.switched).toEqual({ from: 'old.xlsx', dropped: ['the hierarchy of “birth”', 'the date format of “birth”', 'the sheet “data”'] });
    const job = buildJob(state);
    expect(Object.keys((job.method as { hierarchies: object }).hierarchies)).toEqual(['age']);
    expect(job.input).not.toHaveProperty('sheet');
    expect(job.input).not.toHaveProperty('dates');
    expect(job.input.missing).toEqual(['NA']);
  });

  it('keeps everything for a file with the same columns and sheet, and says nothing', () => {
    const state = reducer(withSettings(), { type: 'opened', file: file('/data/other.xlsx', ['age', 'birth', 'sex'], ['README', 'data']) });
    expect(state.switched).toBeUndefined();
    // Unchanged reading options stay the same object: a new one would make the Open step read the new file again.
    const before = withSettings();
    expect(reducer(before, { type: 'opened', file: file('/data/other.xlsx', ['age', 'birth', 'sex'], ['README', 'data']) }).fileOptions).toBe(before.fileOptions);
    const job = buildJob(state);
    expect(Object.keys((job.method as { hierarchies: object }).hierarchies).sort()).toEqual(['age', 'birth']);
    expect(job.input).toMatchObject({ sheet: 'data', dates: { birth: 'dd/mm/yyyy' } });
  });

  it('keeps all settings when the same file is read again', () => {
    const state = reducer(withSettings(), { type: 'opened', file: file('/data/old.xlsx', ['age', 'sex'], ['README', 'data']) });
    expect(state.switched).toBeUndefined();
    expect(Object.keys(state.hierarchies).sort()).toEqual(['age', 'birth']);
  });
});
