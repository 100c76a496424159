// The wizard asks a mechanism's own hooks where it used to name a method type: which levels the
// hierarchy table shows for a saved job (tableLevels), how the risk preview's lattice changes the
// draft (latticeChoice), and a method's own name for a field (the metadata's fieldNames).
import { describe, expect, it } from 'vitest';
import { named } from '../../src/common/job/names.js';
import { browserMechanismOf } from '../../src/mechanisms/browser-registry.js';
import { MECHANISM_TYPES } from '../../src/mechanisms/definitions.js';
import { fieldName } from '../../src/renderer/components/plain-messages.js';
import { buildJob, stateFromJob } from '../../src/renderer/state/job.js';
import { initialState, reducer } from '../../src/renderer/state/wizard-state.js';

const job = (method: Record<string, unknown>) => ({
  version: 1,
  input: { path: '/data/survey.csv' },
  attributes: { age: 'quasi', disease: 'sensitive' },
  method,
  output: { dir: '/data/release' },
});

describe("the mechanisms' wizard hooks", () => {
  it("restore a job's fixed levels into the hierarchy table, and not global recoding's bounds of its own search", () => {
    const hierarchies = { age: { type: 'interval', widths: [10, 20] } };
    const fixed = stateFromJob(job({ type: 'safe-k-anonymity', k: 5, sampling: 0.5, epsilon: 1, hierarchies, levels: { age: 2 } }));
    expect(fixed.hierarchies['age']?.level).toBe(2);
    const searched = stateFromJob(job({ type: 'safe-k-anonymity', k: 5, sampling: 0.5, epsilon: 1, hierarchies, levels: 'search' }));
    expect(searched.hierarchies['age']?.level).toBe(0);
    const bounded = stateFromJob(job({ type: 'global-recoding', models: [{ type: 'k-anonymity', k: 2 }], hierarchies, levels: { age: 2 } }));
    expect(bounded.hierarchies['age']?.level).toBe(0);
    // The bound stays in global recoding's form and in the job it builds.
    expect({ ...(buildJob(bounded) as { method: { levels: object } }).method.levels }).toEqual({ age: 2 });
  });

  it("put the lattice's choices into global recoding's draft only", () => {
    const lattice = browserMechanismOf('global-recoding').latticeChoice!;
    const state = reducer({ ...initialState, method: 'global-recoding' }, { type: 'patchDraft', method: 'global-recoding', patch: lattice.suppressionLimit(0.035) });
    expect(state.drafts['global-recoding'].suppressionPercent).toBe(3.5);
    const kept = reducer(state, { type: 'patchDraft', method: 'global-recoding', patch: lattice.levels(named([['age', { min: 1 }]])) });
    expect({ ...kept.drafts['global-recoding'].levels }).toEqual({ age: { min: 1 } });
    expect(MECHANISM_TYPES.filter((t) => browserMechanismOf(t).latticeChoice !== null)).toEqual(['global-recoding']);
  });

  it("name a field by the method's own word where one key means different fields", () => {
    expect(fieldName('method.columns', 'dp-counts')).toBe('the columns to count');
    expect(fieldName('method.columns', 'microaggregation')).toBe('the columns to aggregate');
    expect(fieldName('method.columns', 'global-recoding')).toBe('the columns');
  });

  it("call a key whose name is one of Object.prototype's members 'a setting', not a function's text", () => {
    for (const key of ['method.constructor', 'method.toString', 'method.__proto__', 'method.hasOwnProperty']) {
      expect(fieldName(key, 'global-recoding')).toBe('a setting');
      expect(fieldName(key)).toBe('a setting');
    }
  });
});
