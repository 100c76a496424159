/**
 * The wizard keeps roles, hierarchies and levels keyed by column name: a column
 * called `__proto__` or `constructor` must keep its role through a job file
 * opened in the wizard, a role change, and the job the wizard writes back.
 */
import { describe, expect, it } from 'vitest';
import { buildJob, recodingOfState, stateFromJob } from '../../src/renderer/state/job.js';
import type { OpenedFile } from '../../src/common/ipc/api.js';
import { initialState, reducer } from '../../src/renderer/state/wizard-state.js';

const own = <T>(record: Readonly<Record<string, T>>, name: string): T | undefined => (Object.hasOwn(record, name) ? record[name] : undefined);

/** As a user's file holds it: JSON.parse makes `__proto__` an own key, an object literal would not. */
const JOB = JSON.parse(
  '{"version": 1, "input": {"path": "people.csv"}, "attributes": {"__proto__": "identifier", "constructor": "quasi", "toString": "sensitive", "hasOwnProperty": "insensitive"},' +
    ' "method": {"type": "safe-k-anonymity", "k": 2, "sampling": 0.5, "epsilon": 1, "hierarchies": {"constructor": {"type": "interval", "widths": [10]}, "__proto__": {"type": "masking", "length": 2}}, "levels": {"constructor": 1, "__proto__": 1}},' +
    ' "output": {"dir": "release", "formats": ["csv"]}}',
) as Record<string, unknown>;

describe('wizard state with column names that are object keys', () => {
  it('a newly opened file starts every column, whatever its name, as a quasi-identifier', () => {
    // Only the fields the reducer reads: the path and the column names.
    const file = { path: '/data/people.csv', columns: ['__proto__', 'constructor', 'toString'].map((name) => ({ name })) } as unknown as OpenedFile;
    const state = reducer(initialState, { type: 'opened', file });
    expect(Object.entries(state.roles)).toEqual([['__proto__', 'quasi'], ['constructor', 'quasi'], ['toString', 'quasi']]);
  });

  it('keeps every role by name through opening, editing and writing the job', () => {
    const state = stateFromJob(JOB);
    expect(own(state.roles, '__proto__')).toBe('identifier');
    expect(own(state.roles, 'constructor')).toBe('quasi');
    expect(own(state.roles, 'valueOf')).toBeUndefined();

    const edited = reducer(state, { type: 'setRole', column: 'hasOwnProperty', role: 'quasi' });
    const written = JSON.parse(JSON.stringify(buildJob(edited))) as { attributes: object };
    expect(Object.entries(written.attributes).sort()).toEqual([
      ['__proto__', 'identifier'],
      ['constructor', 'quasi'],
      ['hasOwnProperty', 'quasi'],
      ['toString', 'sensitive'],
    ]);

    // An identifier is never recoded, whatever it is called; `constructor` keeps its hierarchy and level.
    const recoding = JSON.parse(JSON.stringify(recodingOfState(edited))) as { hierarchies: object; levels: object };
    expect(Object.entries(recoding.hierarchies)).toEqual([['constructor', { type: 'interval', widths: [10] }]]);
    expect(Object.entries(recoding.levels)).toEqual([['constructor', 1]]);
  });
});
